// The claude-cli provider against a fake `claude` first on PATH (tests/helpers/fake-claude.ts), which checks
// the flags and the hook marker and answers in Claude Code's JSON result shape.
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { installFakeClaude } from "../../tests/helpers/fake-claude.ts";
import { defaultConfig } from "../config/defaults.ts";
import type { SummaryRequest } from "../core/summaries/extractive.ts";
import { ledgerPath, readLedger } from "../store/summaries/ledger-store.ts";
import { claudeCliArgs, createClaudeCliClient } from "./claude-cli.ts";
import { summarizeRequests } from "./summarizer.ts";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const request = (i: number): SummaryRequest => ({
  message: {
    uuid: `u${i}`,
    role: "user",
    kind: "prompt",
    text: `Please fix bug ${i} in src/module${i}.ts`,
    exactTokens: null,
    timestamp: null,
  },
  before: {
    uuid: `a${i}`,
    role: "assistant",
    kind: "reply",
    text: "Which bug first?",
    exactTokens: null,
    timestamp: null,
  },
  after: null,
});
const summariesConfig = (over: Partial<ReturnType<typeof defaultConfig>["summaries"]> = {}) => ({
  ...defaultConfig().summaries,
  provider: "claude-cli" as const,
  model: "claude-haiku-4-5",
  ...over,
});

describe("claude -p as a summary provider", () => {
  it("passes -p, JSON output, no session persistence, the model and the hook marker; prompt on stdin", async () => {
    const fake = installFakeClaude();
    const client = createClaudeCliClient({ model: "claude-haiku-4-5", timeoutMs: 10_000, env: fake.env });
    const answer = await client.complete('<message id="m1" role="user" kind="prompt">\nhello there\n</message>', 100);
    expect(answer.text).toBe('{"summaries":{"m1":"LLM: hello there"}}');
    expect(answer.usage.outputTokens).toBe(20);
    const [call] = fake.calls();
    expect(call?.args).toEqual(claudeCliArgs("claude-haiku-4-5"));
    expect(call?.args).toEqual(
      expect.arrayContaining(["-p", "--no-session-persistence", "--model", "claude-haiku-4-5"]),
    );
    expect(call?.hooksDisabled).toBe("1");
    // Its own folder: no project's CLAUDE.md, hooks or MCP servers load in the summariser's runs.
    expect(call?.cwd).toBe(join(fake.env.CTX_HOME ?? "", "summarizer"));
    expect(call?.prompt).toContain("hello there");
  });

  it("reports an error result, a crash, a hang and a missing executable as clear errors", async () => {
    const fake = installFakeClaude();
    const run = (mode: string, timeoutMs = 10_000) =>
      createClaudeCliClient({ model: "m", timeoutMs, env: { ...fake.env, FAKE_CLAUDE_MODE: mode } }).complete("x", 10);
    const failed = await rejectedCtxError(run("error"));
    expect(failed).toMatchObject({ code: "PROVIDER_FAILED" });
    expect(failed.message).toContain("Not logged in");
    expect((await rejectedCtxError(run("garbage"))).message).toContain("not JSON");
    expect((await rejectedCtxError(run("hang", 300))).message).toMatch(/did not answer within 300 ms/);
    const missing = createClaudeCliClient({ model: "m", timeoutMs: 1_000, env: { PATH: "/nonexistent" } });
    const unavailable = await rejectedCtxError(missing.complete("x", 10));
    expect(unavailable.code).toBe("PROVIDER_UNAVAILABLE");
    expect(unavailable.hint).toContain("--provider extractive");
  });
});

describe("summarizeRequests with claude-cli", () => {
  it("summarises through the LLM and books requests and tokens in the ledger (0600)", async () => {
    const fake = installFakeClaude();
    const outcome = await summarizeRequests([request(1), request(2)], {
      config: summariesConfig(),
      env: fake.env,
      now: () => NOW,
      allowlist: [],
    });
    expect(outcome.summaries.map((s) => [s.text, s.provider, s.model])).toEqual([
      ["LLM: Please fix bug 1 in src/module1.ts", "claude-cli", "claude-haiku-4-5"],
      ["LLM: Please fix bug 2 in src/module2.ts", "claude-cli", "claude-haiku-4-5"],
    ]);
    expect(outcome).toMatchObject({ llmRequests: 1, fallbacks: 0, warnings: [] });
    expect(fake.calls()[0]?.prompt).toContain('<before role="assistant">Which bug first?</before>');
    const path = ledgerPath(fake.env);
    const counts = (await readLedger(path))?.days["2026-11-22"]?.["claude-cli/claude-haiku-4-5"];
    expect(counts).toMatchObject({ requests: 1, outputTokens: 40, refused: 0 });
    expect(counts?.inputTokens).toBe(Math.ceil((fake.calls()[0]?.prompt.length ?? 0) / 4));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("falls back to extractive when the daily cap would be exceeded, says so, and counts the refusal", async () => {
    const fake = installFakeClaude();
    const outcome = await summarizeRequests([request(1)], {
      config: summariesConfig({ dailyTokenCap: 100 }),
      env: fake.env,
      now: () => NOW,
      allowlist: [],
    });
    expect(outcome.summaries[0]).toMatchObject({
      provider: "extractive",
      text: "Please fix bug 1 in src/module1.ts (in reply to: Which bug first?)",
    });
    expect(outcome.fallbacks).toBe(1);
    expect(outcome.warnings[0]).toMatch(/daily token cap reached .*0 of 100 tokens.*extractive/);
    expect(fake.calls()).toHaveLength(0);
    expect((await readLedger(ledgerPath(fake.env)))?.days["2026-11-22"]?.["claude-cli/claude-haiku-4-5"]).toMatchObject(
      {
        requests: 0,
        refused: 1,
      },
    );
  });

  it("fills what the model left out, falls back on a failed run, and redacts secrets the model echoes", async () => {
    const fake = installFakeClaude();
    const deps = { config: summariesConfig(), now: () => NOW, allowlist: [] };
    const partial = await summarizeRequests([request(1), request(2)], {
      ...deps,
      env: { ...fake.env, FAKE_CLAUDE_MODE: "partial" },
    });
    expect(partial.summaries.map((s) => s.provider)).toEqual(["extractive", "claude-cli"]);
    expect(partial.warnings[0]).toContain("left out 1 of 2");

    const failed = await summarizeRequests([request(1)], { ...deps, env: { ...fake.env, FAKE_CLAUDE_MODE: "error" } });
    expect(failed.summaries[0]?.provider).toBe("extractive");
    expect(failed.warnings[0]).toMatch(/claude-cli failed \(claude -p reported an error/);

    const echoed = await summarizeRequests([request(1)], { ...deps, env: { ...fake.env, FAKE_CLAUDE_MODE: "secret" } });
    expect(echoed.summaries[0]?.text).toContain("[REDACTED:anthropic-api-key]");
    expect(echoed.summaries[0]?.text).not.toContain("sk-ant-");
  });

  it("never sends a secret to the model, even in text that was not redacted before", async () => {
    const fake = installFakeClaude();
    const secret = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7d";
    const leaky: SummaryRequest = {
      ...request(1),
      message: { ...request(1).message, text: `Use ${secret} for the API` },
    };
    await summarizeRequests([leaky], { config: summariesConfig(), env: fake.env, now: () => NOW, allowlist: [] });
    expect(fake.calls()[0]?.prompt).not.toContain(secret);
    expect(fake.calls()[0]?.prompt).toContain("[REDACTED:github-token]");
  });

  it("two summarisers at once cannot both spend the last tokens of the day", async () => {
    const fake = installFakeClaude();
    // Room for about one request: each books its prompt estimate plus a 512-token answer allowance.
    const deps = { config: summariesConfig({ dailyTokenCap: 1_200 }), env: fake.env, now: () => NOW, allowlist: [] };
    const [a, b] = await Promise.all([summarizeRequests([request(1)], deps), summarizeRequests([request(2)], deps)]);
    expect([a.llmRequests, b.llmRequests].sort()).toEqual([0, 1]);
    expect(fake.calls()).toHaveLength(1);
  });
});
