// Lineage rules on sessions made by the real Claude Code CLI (pinned release, offline against the mock Messages
// API): a session, a `--resume` of it, a `--resume --fork-session` copy and a `--resume-session-at` fork at its first
// prompt, and a `--fork-session` that ran only a local command (`/cost`: a copy that added nothing). `ctx index` then
// `ctx search --json` must show the forks' parent, the original's forks, a resume that made no new session, a
// forkAtCommand that Claude Code accepts, and the copy folded into the original ("also in", docs/search.md). Skips
// with a reason when the CLI cannot be installed, unless CI is set.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-lineage.test.ts skipped: ${cli.skipReason}\n`);

const TIMEOUT_MS = 180_000;
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

interface Result {
  sessionId: string;
  parents: string[];
  forks: string[];
  chainQuality: number;
  forkAtCommand: string | null;
  alsoIn: Array<{ sessionId: string; project: string }>;
}

describe.skipIf(claudeBin === undefined)(`session lineage from Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it(
    "forks and resumes made by the real CLI give parents, forks and a working forkAtCommand",
    async () => {
      const sandbox = await createSandbox({ claudeBin });
      sandboxes.push(sandbox);
      const mock = await startMockAnthropic({});
      try {
        const turn = async (prompt: string, reply: string, args: string[] = []) => {
          const run = await runClaudeTurn({ sandbox, mock, prompt, turns: [{ text: reply }], args });
          expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
          return run;
        };
        const first = await turn("refactor the quarkolith parser", "The quarkolith parser now streams.");
        const original = first.result?.session_id ?? "";
        expect(original).not.toBe("");
        const resumed = await turn("add quarkolith tests", "Added tests.", ["--resume", original]);
        expect(resumed.result?.session_id).toBe(original);
        const forked = await turn("try a quarkolith variant", "Variant done.", [
          "--resume",
          original,
          "--fork-session",
        ]);
        const fork = forked.result?.session_id ?? "";
        expect(fork).not.toBe(original);
        const rootUuid = readFileSync(first.transcriptPath ?? "", "utf8")
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { type?: string; uuid?: string })
          .find((entry) => entry.type === "user")?.uuid;
        const forkedAt = await turn("quarkolith from the start", "Restarted.", [
          "--resume",
          original,
          "--fork-session",
          "--resume-session-at",
          rootUuid ?? "",
        ]);
        const forkAt = forkedAt.result?.session_id ?? "";
        expect(new Set([original, fork, forkAt]).size).toBe(3);
        // A fork that only ran a local command: no request reaches the model, the copy gets no reply of its own.
        const copiedOnly = await runClaudeTurn({
          sandbox,
          mock,
          prompt: "/cost",
          turns: [],
          args: ["--resume", original, "--fork-session"],
        });
        expect(copiedOnly.exitCode, copiedOnly.stderr).toBe(0);
        const copy = copiedOnly.result?.session_id ?? "";
        expect(new Set([original, fork, forkAt, copy]).size).toBe(4);

        const claudeDir = join(sandbox.home, ".claude");
        const transcripts = readdirSync(join(claudeDir, "projects"), { recursive: true }).filter((name) =>
          String(name).endsWith(".jsonl"),
        );
        // The resume appended to the original's file: four sessions, four files.
        expect(transcripts).toHaveLength(4);
        const index = await runCtx(sandbox, ["index", "--claude-dir", claudeDir, "--quiet"]);
        expect(index.exitCode, index.stderr).toBe(0);
        const search = await runCtx(sandbox, ["search", "quarkolith", "--json", "--no-refresh", "--limit", "5"]);
        expect(search.exitCode, search.stderr).toBe(0);
        const results = (JSON.parse(search.stdout) as { results: Result[] }).results;
        const byId = new Map(results.map((result) => [result.sessionId, result]));
        expect(byId.get(fork)?.parents).toEqual([original]);
        expect(byId.get(forkAt)?.parents).toEqual([original]);
        expect(byId.get(original)?.parents).toEqual([]);
        // The copy is shown once, as the original: never a result of its own.
        expect(byId.has(copy)).toBe(false);
        expect(byId.get(original)?.alsoIn.map((entry) => entry.sessionId)).toEqual([copy]);
        expect(byId.get(fork)?.alsoIn).toEqual([]);
        expect([...(byId.get(original)?.forks ?? [])].sort()).toEqual([copy, fork, forkAt].sort());
        // Neither fork went on past 20 messages of its own.
        expect(byId.get(original)?.chainQuality).toBe(0);
        const text = await runCtx(sandbox, ["search", "quarkolith", "--no-refresh", "--limit", "5"]);
        expect(text.stdout).toMatch(new RegExp(`also in \\S+ \\(${copy.slice(0, 8)}\\)`));

        // The forkAtCommand's arguments work in Claude Code: a new session that stops at that line.
        const command = byId.get(original)?.forkAtCommand ?? "";
        const at = /--resume-session-at '?([^'\s]+)'?/.exec(command)?.[1];
        expect(at, command).toBeDefined();
        const again = await turn("quarkolith once more", "Once more.", [
          "--resume",
          original,
          "--fork-session",
          "--resume-session-at",
          at ?? "",
        ]);
        const copied = readFileSync(again.transcriptPath ?? "", "utf8")
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { uuid?: string });
        expect(copied.some((entry) => entry.uuid === at)).toBe(true);
      } finally {
        await mock.close();
      }
    },
    TIMEOUT_MS,
  );
});
