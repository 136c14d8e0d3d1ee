// `ctx summarize --background` (what `ctx serve`'s background sync runs when an LLM provider is configured):
// quiet sessions are summarised with the provider, busy ones left for later, and the daily cap ends the pass.
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject } from "../../../tests/helpers/cli-project.ts";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { installFakeClaude } from "../../../tests/helpers/fake-claude.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { syncCommands } from "../../mcp/background-index.ts";
import { BackgroundSummariesReportSchema } from "../../summaries/background.ts";

let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

describe("ctx summarize --background", () => {
  it("summarises a quiet session with the configured provider, leaves a busy one, and stops at the cap", async () => {
    const fake = installFakeClaude(project.base);
    const env = { ...fake.env, CTX_HOME: join(project.base, "ctx-home"), CTX_SUMMARIES__PROVIDER: "claude-cli" };
    const run = (extra: NodeJS.ProcessEnv = {}) =>
      runCliCaptured(["summarize", "--background", "--idle-ms", "60000", "--json"], {
        cwd: project.root,
        env: { ...env, ...extra },
      });

    const busy = BackgroundSummariesReportSchema.parse(JSON.parse((await run()).stdout));
    expect(busy).toMatchObject({ provider: "claude-cli", sessions: [], capped: false });
    expect(busy.skipped).toEqual([{ sessionId: project.sessionId, reason: "busy" }]);
    expect(fake.calls()).toHaveLength(0);

    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(project.transcript, old, old);
    const capped = BackgroundSummariesReportSchema.parse(
      JSON.parse((await run({ CTX_SUMMARIES__DAILY_TOKEN_CAP: "1" })).stdout),
    );
    expect(capped).toMatchObject({ capped: true, sessions: [{ sessionId: project.sessionId, llmRequests: 0 }] });

    await runCliCaptured(["summaries", "clear"], { cwd: project.root, env });
    const quiet = BackgroundSummariesReportSchema.parse(JSON.parse((await run()).stdout));
    expect(quiet.sessions).toEqual([
      { sessionId: project.sessionId, made: 6, reused: 0, llmRequests: 1, fallbacks: 0 },
    ]);
    expect(fake.calls()).toHaveLength(1);
    // Summarised already: the next pass makes nothing and asks the LLM for nothing.
    expect(BackgroundSummariesReportSchema.parse(JSON.parse((await run()).stdout)).sessions[0]).toMatchObject({
      made: 0,
      llmRequests: 0,
    });
    expect(fake.calls()).toHaveLength(1);
  });

  it("does nothing with the extractive provider, and rejects a bad --idle-ms", async () => {
    const report = BackgroundSummariesReportSchema.parse(
      JSON.parse((await project.run(["summarize", "--background", "--json"])).stdout),
    );
    expect(report.skipped).toEqual([{ sessionId: project.sessionId, reason: "extractive" }]);
    expect((await rejectedCtxError(project.run(["summarize", "--background", "--idle-ms", "soon"]))).code).toBe(
      "USAGE",
    );
  });

  it("is part of ctx serve's background sync only when an LLM provider is configured", () => {
    const config = defaultConfig();
    const base = { cliPath: "/ctx.js", execPath: "/node", projectRoot: "/p" };
    expect(syncCommands({ ...base, config }).some((command) => command.includes("summarize"))).toBe(false);
    const llm = { ...config, summaries: { ...config.summaries, provider: "anthropic" as const } };
    expect(syncCommands({ ...base, config: llm }).at(-1)).toEqual([
      "/node",
      "/ctx.js",
      "summarize",
      "--background",
      "--idle-ms",
      "60000",
      "--json",
      "--project",
      "/p",
    ]);
  });
});
