// A topic that comes up only in the second half of a long session is found, and the fork point offered for it
// (`matchUuid`, the "fork at the match" command's --resume-session-at) lies in that second half, not at the
// session's opening topic (issue 32). The real fixture transcripts, the built CLI (`ctx search --json`) and a real
// MCP client calling ctx_fork_detect on `ctx serve`, as /fork-detect does. The queries are ours
// (bench/coding-queries.jsonl, cx081 and cx069), paraphrased: no four words copied from the sessions.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CLAUDE_DIR } from "../helpers/claude-projects.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

const LATE = [
  {
    // The long spotter session: the pre-commit hook's dialyzer failure comes at its end, after a compaction.
    query: "pre-commit hook failed on old dialyzer warnings in waiting_summary and slice_builder",
    sessionId: "4d5611e5-241a-462a-8d15-5122611a9569",
  },
  {
    // A claude-code-viewer session: the production build breaks near its end; it opens on something else.
    query: "final npm build of the integrated todo page broke though the dev server came up fine",
    sessionId: "fe5e1c67-53e7-4862-81ae-d0e013e3270b",
  },
] as const;

interface Result {
  sessionId: string;
  transcriptPath: string;
  matchUuid: string | null;
  forkAtCommand?: string | null;
}

const root = mkdtempSync(join(tmpdir(), "ctx-late-topic-"));
const claudeDir = join(root, "claude");
const env = { CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir, HOME: root };

beforeAll(async () => {
  mkdirSync(claudeDir, { recursive: true });
  cpSync(join(FIXTURE_CLAUDE_DIR, "projects"), join(claudeDir, "projects"), { recursive: true });
  const indexed = await runCtx(["index", "--quiet"], { cwd: root, env, timeoutMs: 120_000 });
  expect(indexed.code, indexed.stderr).toBe(0);
}, 150_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Where the uuid sits among the transcript's user and assistant lines: 0 = first, 1 = last; -1 when absent. */
function position(transcriptPath: string, uuid: string | null): number {
  const messages = readFileSync(transcriptPath, "utf8")
    .split("\n")
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as { type?: string; uuid?: string };
        return parsed.type === "user" || parsed.type === "assistant" ? [parsed.uuid] : [];
      } catch {
        return [];
      }
    });
  const at = messages.indexOf(uuid ?? "");
  return at < 0 ? -1 : at / (messages.length - 1);
}

function expectLateMatch(results: readonly Result[], sessionId: string): void {
  const top = results[0];
  expect(top?.sessionId).toBe(sessionId);
  if (top === undefined) return;
  expect(position(top.transcriptPath, top.matchUuid)).toBeGreaterThan(0.5);
}

describe("a topic in the second half of a session", () => {
  it.each(LATE)("ctx search ranks its session first and forks at the match: $query", async ({ query, sessionId }) => {
    const searched = await runCtx(["search", "--json", "--no-refresh", "--limit", "3", query], { cwd: root, env });
    expect(searched.code, searched.stderr).toBe(0);
    const { results } = JSON.parse(searched.stdout) as { results: Result[] };
    expectLateMatch(results, sessionId);
    expect(results[0]?.forkAtCommand).toContain(`--resume-session-at ${results[0]?.matchUuid}`);
  });

  it("ctx_fork_detect over MCP points at the same part", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CTX_BIN, "serve"],
      env: { ...process.env, CTX_LOG_LEVEL: "warn", ...env } as Record<string, string>,
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      for (const { query, sessionId } of LATE) {
        const called = await client.callTool({ name: "ctx_fork_detect", arguments: { query, limit: 3 } });
        expect(called.isError).toBeFalsy();
        const { results } = called.structuredContent as { results: Result[] };
        expectLateMatch(results, sessionId);
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});
