// SessionEnd queues indexing of the ended session: the hook returns at once, a detached `ctx index --file` makes the
// session searchable; with `ctx serve`'s watcher mark (a live pid) the hook leaves it to the watcher.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { markWatching } from "../../src/search/sync/queue-index.ts";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { runCtx } from "./ctx-process.ts";

const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";

function setUp() {
  const base = mkdtempSync(join(tmpdir(), "ctx-session-end-index-"));
  const claudeDir = join(base, "claude");
  const sessions = writeSampleClaudeDir(claudeDir);
  const phoenix = sessions.find((session) => session.sessionId === PHOENIX);
  if (phoenix === undefined) throw new Error("fixture missing");
  const project = join(base, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  const env = { CTX_HOME: join(base, "ctx-home"), HOME: join(base, "home"), CLAUDE_CONFIG_DIR: claudeDir };
  const stdin = JSON.stringify({
    session_id: PHOENIX,
    transcript_path: phoenix.path,
    cwd: project,
    hook_event_name: "SessionEnd",
    reason: "prompt_input_exit",
  });
  return { base, env, project, stdin };
}

function indexedSessions(ctxHome: string): string[] {
  const path = join(ctxHome, "index.db");
  if (!existsSync(path)) return [];
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare("SELECT id FROM sessions").all() as { id: string }[]).map((row) => row.id);
  } catch {
    return [];
  } finally {
    db.close();
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe("SessionEnd queues indexing of the ended session", () => {
  it("a detached ctx index --file indexes that session only", async () => {
    const { env, project, stdin } = setUp();
    const end = await runCtx(["hook", "SessionEnd"], { cwd: project, env, stdin });
    expect(end.code, end.stderr).toBe(0);
    expect(await waitFor(() => indexedSessions(env.CTX_HOME).includes(PHOENIX), 20_000)).toBe(true);
    // Only the ended session's transcript, not the other six sample sessions.
    expect(indexedSessions(env.CTX_HOME)).toEqual([PHOENIX]);
  }, 30_000);

  it("leaves it to ctx serve's watcher when its mark names a live process", async () => {
    const { env, project, stdin } = setUp();
    const unmark = markWatching(env, process.pid);
    try {
      const end = await runCtx(["hook", "SessionEnd"], { cwd: project, env, stdin });
      expect(end.code, end.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(indexedSessions(env.CTX_HOME)).toEqual([]);
    } finally {
      unmark();
    }
    // A stale mark (a pid that is gone) does not count.
    writeFileSync(join(env.CTX_HOME, "index-watcher.pid"), "999999999\n");
    const end = await runCtx(["hook", "SessionEnd"], { cwd: project, env, stdin });
    expect(end.code, end.stderr).toBe(0);
    expect(await waitFor(() => indexedSessions(env.CTX_HOME).includes(PHOENIX), 20_000)).toBe(true);
  }, 40_000);

  it("ctx index --file rejects a path that is not a transcript under projects/", async () => {
    const { env, project, base } = setUp();
    const run = await runCtx(["index", "--file", join(base, "nope.jsonl")], { cwd: project, env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("is not a transcript under the projects folder");
  });
});
