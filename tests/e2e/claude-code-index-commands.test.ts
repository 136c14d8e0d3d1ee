// /stats and /reindex inside the real Claude Code CLI (offline, scripted Messages API mock): `ctx init` writes them,
// `claude -p "/stats"` sends their steps to the model, whose scripted reply calls ctx_index as the command says; the
// tool's result must come back without error. /reindex starts the rebuild in the background and answers at once;
// the rebuild (the built `ctx reindex`, detached) then records that it finished, and `ctx stats` shows it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { toolResults } from "./harness/messages-api.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { approveProjectMcpServers, createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-index-commands.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

describe.skipIf(claudeBin === undefined)(`/stats and /reindex in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("/stats and /reindex call ctx_index through claude -p and come back without error", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    const init = await runCtx(sandbox, ["init"]);
    expect(init.exitCode, init.stderr).toBe(0);
    for (const name of ["stats", "reindex"]) {
      expect(existsSync(join(sandbox.project, ".claude", "commands", `${name}.md`))).toBe(true);
    }
    await approveProjectMcpServers(sandbox);
    const mock = await startMockAnthropic({});
    try {
      // One session to index first.
      const first = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "tune the zephyrine cache",
        turns: [{ text: "The zephyrine cache is tuned." }],
      });
      expect(first.exitCode, first.stderr).toBe(0);
      const index = await runCtx(sandbox, ["index", "--quiet"]);
      expect(index.exitCode, index.stderr).toBe(0);

      const stats = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "/stats",
        allowedTools: ["mcp__ctx__ctx_index"],
        turns: [
          { toolUse: { id: "toolu_stats", name: "mcp__ctx__ctx_index", input: { op: "stats" } } },
          { text: "Here are the index statistics." },
        ],
      });
      const diagnostics = `exit ${stats.exitCode}\nstdout: ${stats.stdout}\nstderr: ${stats.stderr}`;
      expect(stats.exitCode, diagnostics).toBe(0);
      expect(stats.problems).toEqual([]);
      expect(JSON.stringify(stats.requests[0]?.body ?? {})).toContain("Show the statistics of ctx's session index");
      const [statsResult] = toolResults(stats.requests[1]?.body ?? {});
      expect(statsResult, `${diagnostics}\ntool result: ${statsResult?.text}`).toMatchObject({
        toolUseId: "toolu_stats",
        isError: false,
      });
      // Claude Code hands the model the structured result when a tool gives one.
      const shown = JSON.parse(statsResult?.text ?? "{}") as {
        op?: string;
        stats?: { sessions: number; duplicates: unknown; byProject: unknown[] };
      };
      expect(shown.op).toBe("stats");
      expect(shown.stats?.sessions).toBeGreaterThanOrEqual(1);
      expect(shown.stats?.byProject.length).toBeGreaterThanOrEqual(1);
      expect(shown.stats?.duplicates).toEqual({ copies: 0, foldedInto: 0, sharedTranscripts: 0 });

      const reindex = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "/reindex",
        allowedTools: ["mcp__ctx__ctx_index"],
        turns: [
          { toolUse: { id: "toolu_reindex", name: "mcp__ctx__ctx_index", input: { op: "reindex" } } },
          { text: "The rebuild started." },
        ],
      });
      expect(reindex.exitCode, reindex.stderr).toBe(0);
      expect(JSON.stringify(reindex.requests[0]?.body ?? {})).toContain("Rebuild ctx's session index");
      const [started] = toolResults(reindex.requests[1]?.body ?? {});
      expect(started, started?.text).toMatchObject({ toolUseId: "toolu_reindex", isError: false });
      const start = JSON.parse(started?.text ?? "{}") as { started?: boolean; rebuild?: { pid: number } };
      expect(start.started).toBe(true);
      expect(start.rebuild?.pid).toBeGreaterThan(0);

      // The rebuild outlives the session that asked for it; wait for its record to say it finished.
      const recordPath = join(sandbox.ctxHome, "reindex.json");
      const deadline = Date.now() + 60_000;
      const outcome = () =>
        existsSync(recordPath) ? (JSON.parse(readFileSync(recordPath, "utf8")) as { outcome: string }).outcome : null;
      while (outcome() !== "done" && Date.now() < deadline) await new Promise((settle) => setTimeout(settle, 200));
      expect(outcome()).toBe("done");
      const after = await runCtx(sandbox, ["stats", "--json"]);
      expect(after.exitCode, after.stderr).toBe(0);
      const report = JSON.parse(after.stdout) as { sessions: number; rebuild: { outcome: string } | null };
      // Both claude runs of this test are sessions; the reindex ran after the /stats one at least.
      expect(report.sessions).toBeGreaterThanOrEqual(2);
      expect(report.rebuild?.outcome).toBe("done");
    } finally {
      await mock.close();
    }
  }, 240_000);
});
