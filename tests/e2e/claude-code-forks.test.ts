// Fork history end to end (docs/forks.md) with the real Claude Code CLI (pinned release, offline against the mock
// Messages API): a session that writes a file; `ctx search` offers it; `ctx fork <id> --print` prints its fork
// command; Claude Code runs that fork, which writes another file; a second fork only asks a question. After
// `ctx index`, `ctx forks --json` lists both forks with their source, the search that offered it and their
// outcomes read from the transcripts, and `ctx stats --json` the search success rate. Skips with a reason when the
// CLI cannot be installed, unless CI is set.
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { queryHashOf } from "../../src/core/library/fork-offer.ts";
import type { ForksReport } from "../../src/search/fork-history-schema.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-forks.test.ts skipped: ${cli.skipReason}\n`);

const TIMEOUT_MS = 180_000;
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

describe.skipIf(claudeBin === undefined)(`fork history with Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it(
    "records the search, finds the forks it led to and measures them from their transcripts",
    async () => {
      const sandbox = await createSandbox({ claudeBin });
      sandboxes.push(sandbox);
      const mock = await startMockAnthropic({});
      const claudeDir = join(sandbox.home, ".claude");
      try {
        const write = (name: string) => ({
          toolUse: { name: "Write", input: { file_path: join(sandbox.project, name), content: `${name}\n` } },
        });
        const first = await runClaudeTurn({
          sandbox,
          mock,
          prompt: "sketch the zorblat importer",
          turns: [write("importer.txt"), { text: "The zorblat importer is sketched." }],
          args: ["--allowedTools", "Write"],
        });
        expect(first.exitCode, first.stderr).toBe(0);
        const source = first.result?.session_id ?? "";
        expect((await runCtx(sandbox, ["index", "--claude-dir", claudeDir, "--quiet"])).exitCode).toBe(0);

        const search = await runCtx(sandbox, ["search", "zorblat importer", "--json", "--no-refresh"]);
        expect(search.exitCode, search.stderr).toBe(0);
        expect((JSON.parse(search.stdout) as { results: Array<{ sessionId: string }> }).results[0]?.sessionId).toBe(
          source,
        );
        const printed = await runCtx(sandbox, ["fork", source, "--print"]);
        expect(printed.exitCode, printed.stderr).toBe(0);
        expect(printed.stdout).toContain("--fork-session");
        const log = join(sandbox.ctxHome, "library", "fork-log.jsonl");
        expect(statSync(log).mode & 0o777).toBe(0o600);

        const paidOff = await runClaudeTurn({
          sandbox,
          mock,
          prompt: "now add the zorblat exporter",
          turns: [write("exporter.txt"), { text: "Exporter added." }],
          args: ["--allowedTools", "Write", "--resume", source, "--fork-session"],
        });
        expect(paidOff.exitCode, paidOff.stderr).toBe(0);
        const looked = await runClaudeTurn({
          sandbox,
          mock,
          prompt: "what was this about?",
          turns: [{ text: "A zorblat importer." }],
          args: ["--resume", source, "--fork-session"],
        });
        expect(looked.exitCode, looked.stderr).toBe(0);
        const paidOffId = paidOff.result?.session_id ?? "";
        const lookedId = looked.result?.session_id ?? "";
        expect(new Set([source, paidOffId, lookedId]).size).toBe(3);

        expect((await runCtx(sandbox, ["index", "--claude-dir", claudeDir, "--quiet"])).exitCode).toBe(0);
        const forks = await runCtx(sandbox, ["forks", "--json"]);
        expect(forks.exitCode, forks.stderr).toBe(0);
        const report = JSON.parse(forks.stdout) as ForksReport;
        const byId = new Map(report.forks.map((fork) => [fork.sessionId, fork]));
        expect(byId.get(paidOffId)).toMatchObject({
          source,
          fromSearch: true,
          ranBy: "fork",
          // A `ctx search` that did not catch the index up keeps the query's hash, not its words (docs/forks.md).
          offer: { via: "cli", query: null, queryHash: queryHashOf("zorblat importer") },
          outcome: {
            verdict: "paid-off",
            prompts: 1,
            filesModified: [join(sandbox.project, "exporter.txt")],
            forkedAgain: false,
          },
        });
        expect(byId.get(lookedId)).toMatchObject({
          source,
          fromSearch: true,
          outcome: { verdict: "abandoned", prompts: 1, filesModifiedCount: 0 },
        });
        expect(report.stats).toMatchObject({
          searches: 1,
          searchesWithOffers: 1,
          searchesFollowedByFork: 1,
          successRate: 1,
          forks: 2,
          forksFromSearch: 2,
          verdicts: { "paid-off": 1, abandoned: 1 },
          skippedLogLines: 0,
        });

        const text = await runCtx(sandbox, ["forks"]);
        expect(text.stdout).toContain(`from ${source}`);
        expect(text.stdout).toContain(`query ${queryHashOf("zorblat importer").slice(0, 12)} (words not kept)`);
        const stats = await runCtx(sandbox, ["stats", "--json"]);
        expect(stats.exitCode, stats.stderr).toBe(0);
        expect((JSON.parse(stats.stdout) as { forks: ForksReport["stats"] }).forks.successRate).toBe(1);

        // One of the source's two forks paid off: its lineage says neither went past 20 messages (chain quality 0),
        // and search ranks it with that lifted by the one paid-off fork (half the gap to 1).
        const again = await runCtx(sandbox, ["search", "zorblat importer", "--json", "--no-refresh"]);
        const results = (
          JSON.parse(again.stdout) as {
            results: Array<{ sessionId: string; chainQuality: number; components: { chainQuality: number } }>;
          }
        ).results;
        const sourceResult = results.find((result) => result.sessionId === source);
        expect(sourceResult?.chainQuality).toBe(0);
        expect(sourceResult?.components.chainQuality).toBe(0.5);
      } finally {
        await mock.close();
      }
    },
    TIMEOUT_MS,
  );
});
