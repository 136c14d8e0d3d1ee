// The Smart Context slash commands inside the real Claude Code CLI (offline, scripted Messages API mock):
// `ctx init` writes them, `claude -p "/context-stats"` sends their steps to the model, whose scripted reply
// calls the ctx tool the command names; the tool's result must come back without error. Then
// `/clear-summaries all` removes the summaries the first call stored.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { toolResults } from "./harness/messages-api.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { approveProjectMcpServers, createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-summaries-commands.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

describe.skipIf(claudeBin === undefined)(`Smart Context slash commands in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("/context-stats and /clear-summaries call their ctx tools through claude -p", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    const init = await runCtx(sandbox, ["init"]);
    expect(init.exitCode, init.stderr).toBe(0);
    for (const name of ["summarize-all", "summarize-from", "clear-summaries", "context-stats"]) {
      expect(existsSync(join(sandbox.project, ".claude", "commands", `${name}.md`))).toBe(true);
    }
    await approveProjectMcpServers(sandbox);
    const mock = await startMockAnthropic({});
    try {
      const stats = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "/context-stats",
        allowedTools: ["mcp__ctx__ctx_context_stats"],
        turns: [
          { toolUse: { id: "toolu_stats", name: "mcp__ctx__ctx_context_stats", input: {} } },
          { text: "Here are the stats." },
        ],
      });
      const diagnostics = `exit ${stats.exitCode}\nstdout: ${stats.stdout}\nstderr: ${stats.stderr}`;
      expect(stats.exitCode, diagnostics).toBe(0);
      expect(stats.problems).toEqual([]);
      expect(JSON.stringify(stats.requests[0]?.body ?? {})).toContain(
        "Show the context statistics of this conversation with ctx.",
      );
      const [result] = toolResults(stats.requests[1]?.body ?? {});
      expect(result, `${diagnostics}\ntool result: ${result?.text}`).toMatchObject({
        toolUseId: "toolu_stats",
        isError: false,
      });
      const report = JSON.parse(result?.text ?? "{}") as { sessionId?: string; layers?: unknown };
      expect(report.sessionId).toBe(stats.result?.session_id);
      expect(report.layers).toBeDefined();
      const summaries = join(sandbox.project, ".ctx", "summaries");
      expect(readdirSync(summaries)).toEqual([`${stats.result?.session_id}.ctx`]);

      const clear = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "/clear-summaries all",
        allowedTools: ["mcp__ctx__ctx_clear_summaries"],
        turns: [
          { toolUse: { id: "toolu_clear", name: "mcp__ctx__ctx_clear_summaries", input: { all: true } } },
          { text: "Cleared." },
        ],
      });
      expect(clear.exitCode, clear.stderr).toBe(0);
      expect(JSON.stringify(clear.requests[0]?.body ?? {})).toContain("What to clear: all");
      const [cleared] = toolResults(clear.requests[1]?.body ?? {});
      expect(cleared).toMatchObject({ toolUseId: "toolu_clear", isError: false });
      expect(JSON.parse(cleared?.text ?? "{}").removed).toEqual([join(summaries, `${stats.result?.session_id}.ctx`)]);
      expect(readdirSync(summaries)).toEqual([]);
    } finally {
      await mock.close();
    }
  }, 240_000);
});
