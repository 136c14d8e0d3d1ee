// `ctx summarize`, `ctx summaries ledger|clear` and `ctx context-stats` in-process against a temp project.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { type CliProject, createCliProject } from "../../../tests/helpers/cli-project.ts";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { installFakeClaude } from "../../../tests/helpers/fake-claude.ts";
import { ContextStatsSchema } from "../../core/summaries/stats.ts";
import { SummarizeReportSchema } from "../../summaries/operations.ts";
import { LedgerReportSchema, SummariesClearReportSchema } from "../summaries-reports.ts";

const LONG_FIXTURE = FIXTURE.long;
let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

describe("ctx summarize", () => {
  it("summarises the newest session of the project and keeps the summaries in .ctx/summaries/", async () => {
    const { code, stdout } = await project.run(["summarize"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/session\s+sess-cli-1 \(6 messages\)/);
    expect(stdout).toMatch(/summarised\s+6 now with extractive, 0 reused/);
    expect(existsSync(join(project.root, ".ctx", "summaries", "sess-cli-1.ctx"))).toBe(true);
    const again = SummarizeReportSchema.parse(
      JSON.parse((await project.run(["summarize", "sess-cli-1", "--json"])).stdout),
    );
    expect(again).toMatchObject({ sessionId: "sess-cli-1", made: 0, reused: 6, provider: "extractive", fallbacks: 0 });
  });

  it("takes a transcript path, and --print writes the assembled context (bridge preset)", async () => {
    const report = SummarizeReportSchema.parse(
      JSON.parse((await project.run(["summarize", LONG_FIXTURE, "--json"])).stdout),
    );
    expect(report.sessionId).toBe("4d5611e5-241a-462a-8d15-5122611a9569");
    expect(report.messages).toBeGreaterThan(200);
    expect(report.stats.compressionRatio).toBeLessThan(0.2);
    const { stdout } = await project.run(["summarize", LONG_FIXTURE, "--print", "--preset", "bridge"]);
    expect(stdout).toMatch(/^## Earlier conversation \(\d+ messages, folded\)/);
    expect(stdout).toContain("## Summarised (15 messages)");
    expect(stdout).toContain("## Recent (5 messages, verbatim)");
  });

  it("--provider claude-cli runs the fake claude, and the ledger shows the tokens; a cap of 1 falls back and warns", async () => {
    const fake = installFakeClaude(project.base);
    const env = { ...fake.env, CTX_HOME: join(project.base, "ctx-home") };
    const run = (argv: string[], extra: NodeJS.ProcessEnv = {}) =>
      runCliCaptured(argv, { cwd: project.root, env: { ...env, ...extra } });
    const report = SummarizeReportSchema.parse(
      JSON.parse((await run(["summarize", "--provider", "claude-cli", "--json"])).stdout),
    );
    expect(report).toMatchObject({ provider: "claude-cli", made: 6, llmRequests: 1, fallbacks: 0 });
    expect(fake.calls()).toHaveLength(1);

    const ledger = LedgerReportSchema.parse(JSON.parse((await run(["summaries", "ledger", "--json"])).stdout));
    expect(ledger.rows).toEqual([
      expect.objectContaining({ provider: "claude-cli", model: "claude-haiku-4-5", requests: 1 }),
    ]);
    expect(ledger.today.usedTokens).toBeGreaterThan(0);
    expect(ledger.dailyTokenCap).toBe(200_000);
    expect((await run(["summaries", "ledger"])).stdout).toMatch(/claude-cli\/claude-haiku-4-5\s+1 req/);

    await run(["summaries", "clear"]);
    const capped = await run(["summarize", "--provider", "claude-cli", "--json"], {
      CTX_SUMMARIES__DAILY_TOKEN_CAP: "1",
    });
    expect(capped.stderr).toMatch(/ctx: warning: daily token cap reached/);
    expect(SummarizeReportSchema.parse(JSON.parse(capped.stdout))).toMatchObject({
      made: 6,
      llmRequests: 0,
      fallbacks: 6,
    });
  });

  it("unknown sessions and an anthropic provider without a key are clear errors", async () => {
    expect((await rejectedCtxError(project.run(["summarize", "no-such-session"]))).code).toBe("NOT_FOUND");
    expect((await rejectedCtxError(project.run(["summarize", "./missing.jsonl"]))).code).toBe("NOT_FOUND");
    const error = await rejectedCtxError(project.run(["summarize", "--provider", "anthropic"]));
    expect(error.code).toBe("PROVIDER_UNAVAILABLE");
    expect(error.message).toContain("ANTHROPIC_API_KEY");
  });
});

describe("ctx context-stats", () => {
  it("reports tokens per layer and the compression ratio, as text and as JSON", async () => {
    const { stdout } = await project.run(["context-stats"]);
    expect(stdout).toMatch(/^session\s+sess-cli-1/);
    expect(stdout).toMatch(/recent\s+6 messages/);
    const stats = ContextStatsSchema.parse(
      JSON.parse(
        (await project.run(["context-stats", "--session", LONG_FIXTURE, "--preset", "bridge", "--json"])).stdout,
      ),
    );
    expect(stats.layers.recent.messages).toBe(5);
    expect(stats.layers.summarized.messages).toBe(15);
    expect(stats.layers.aggregate.messages).toBe(stats.messages - 20);
    expect(stats.assembledTokens).toBeLessThanOrEqual(stats.budgetTokens);
    expect(stats.contextTokens).toBe(106_060);
    expect(stats.summaries.byProvider).toEqual({ extractive: stats.messages });
  });
});

describe("ctx summaries clear", () => {
  it("deletes one session's summaries or all of them", async () => {
    await project.run(["summarize"]);
    await project.run(["summarize", LONG_FIXTURE]);
    const one = SummariesClearReportSchema.parse(
      JSON.parse((await project.run(["summaries", "clear", "sess-cli-1", "--json"])).stdout),
    );
    expect(one.removed).toEqual([join(project.root, ".ctx", "summaries", "sess-cli-1.ctx")]);
    expect((await project.run(["summaries", "clear"])).stdout).toMatch(/^cleared 1 summaries file\n/);
    expect((await project.run(["summaries", "clear"])).stdout).toBe("no stored summaries to clear\n");
  });
});
