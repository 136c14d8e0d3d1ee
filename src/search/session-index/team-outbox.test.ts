// The team outbox in the session index: an ingest queues only the sessions of shared checkouts, in its own
// transaction; queueing again keeps the earliest chunk and a new seq, so an acknowledgement of what was read before
// leaves work queued meanwhile in place.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import { withIndex } from "../../../tests/helpers/open-index.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { databaseOf } from "./database.ts";
import {
  acknowledgeOutbox,
  createOutboxWriter,
  dropOutboxSessions,
  enqueueSessionsUnder,
  isInsideRoot,
  outboxDepth,
  readOutbox,
  readSetAside,
  releaseSetAside,
  setAsideSessions,
} from "./team-outbox.ts";

describe("team outbox", () => {
  it("queues again with the smaller chunk index and a new seq; a stale acknowledgement leaves it queued", () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "ctx-outbox-")), "index.db");
    withIndex(dbPath, (index) => {
      let now = 1_000;
      const write = createOutboxWriter(index, () => now);
      write("s1", "/a.jsonl", 5);
      write("s2", "/b.jsonl", 0);
      const read = readOutbox(index, 10);
      expect(read.map((i) => [i.sessionId, i.fromChunk])).toEqual([
        ["s1", 5],
        ["s2", 0],
      ]);
      // Queued again while a push of `read` is in flight.
      now = 2_000;
      write("s1", "/a.jsonl", 7);
      expect(acknowledgeOutbox(index, read)).toBe(1);
      const left = readOutbox(index, 10);
      expect(left).toEqual([{ sessionId: "s1", source: "/a.jsonl", fromChunk: 5, seq: 3, enqueuedAt: 1_000 }]);
      expect(outboxDepth(index)).toEqual({ sessions: 1, items: 1, oldestAt: 1_000 });
      expect(acknowledgeOutbox(index, left)).toBe(1);
      expect(outboxDepth(index)).toEqual({ sessions: 0, items: 0, oldestAt: null });
    });
  });

  it("an ingest queues only sessions whose cwd is inside a shared checkout, every file of them", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-outbox-"));
    const claudeDir = layOutClaudeDir(root);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath, teamShare: { roots: [] } });
    expect(withIndex(dbPath, outboxDepth).items).toBe(0);
    const cwds = withIndex(
      dbPath,
      (index) =>
        databaseOf(index).prepare("SELECT id, cwd FROM sessions ORDER BY id").all() as Array<{
          id: string;
          cwd: string;
        }>,
    );
    const shared = cwds[0] as { id: string; cwd: string };
    const others = cwds.filter((s) => s.cwd !== shared.cwd);
    expect(others.length).toBeGreaterThan(0);
    // A grown transcript of the shared checkout's session is queued from its rebuilt chunk on, in the ingest.
    const queued: string[] = [];
    const main = withIndex(
      dbPath,
      (index) =>
        (databaseOf(index).prepare("SELECT path FROM sessions WHERE id = ?").get(shared.id) as { path: string }).path,
    );
    const text = readFileSync(main, "utf8");
    writeFileSync(main, `${text}${text.split("\n")[0]}\n`);
    await syncIndex({ claudeDir, dbPath, teamShare: { roots: [shared.cwd], onQueued: (id) => queued.push(id) } });
    expect(queued).toEqual([shared.id]);
    const items = withIndex(dbPath, (index) => readOutbox(index, 100));
    expect(new Set(items.map((i) => i.sessionId))).toEqual(new Set([shared.id]));
    // Share's backfill: every indexed file of every session under the root, from chunk 0.
    const sessions = withIndex(dbPath, (index) => enqueueSessionsUnder(index, [shared.cwd]));
    expect(sessions).toBe(cwds.filter((s) => isInsideRoot(s.cwd, shared.cwd)).length);
    const files = withIndex(
      dbPath,
      (index) =>
        databaseOf(index)
          .prepare(`SELECT count(*) AS n FROM files WHERE session_id IN (SELECT id FROM sessions WHERE cwd = ?)`)
          .get(shared.cwd) as { n: number },
    );
    const all = withIndex(dbPath, (index) => readOutbox(index, 100));
    expect(all.length).toBe(Number(files.n));
    expect(all.every((i) => i.fromChunk === 0)).toBe(true);
  });

  it("a set-aside session is held back with its reason until it is queued again, released or pushed", () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "ctx-outbox-")), "index.db");
    withIndex(dbPath, (index) => {
      let now = 1_000;
      const write = createOutboxWriter(index, () => now);
      write("bad", "/bad.jsonl", 0);
      write("bad", "/bad-agent.jsonl", 0);
      write("good", "/good.jsonl", 0);
      const tried = readOutbox(index, 10).filter((i) => i.sessionId === "bad");
      setAsideSessions(
        index,
        [{ sessionId: "bad", seq: Math.max(...tried.map((i) => i.seq)), reason: "refused" }],
        () => 5,
      );
      expect(readOutbox(index, 10).map((i) => i.sessionId)).toEqual(["good"]);
      expect(outboxDepth(index)).toEqual({ sessions: 1, items: 1, oldestAt: 1_000 });
      expect(readSetAside(index)).toEqual([{ sessionId: "bad", reason: "refused", at: 5 }]);
      // Queued again (the session changed, `ctx index --full`): it is tried again, and no longer listed.
      now = 2_000;
      write("bad", "/bad.jsonl", 3);
      expect(readOutbox(index, 10).map((i) => i.sessionId)).toEqual(["bad", "bad", "good"]);
      expect(readSetAside(index)).toEqual([]);
      // Refused again, then released by `ctx team push --retry-set-aside`.
      const again = readOutbox(index, 10).filter((i) => i.sessionId === "bad");
      setAsideSessions(index, [{ sessionId: "bad", seq: Math.max(...again.map((i) => i.seq)), reason: "still" }]);
      expect(readSetAside(index).map((s) => s.reason)).toEqual(["still"]);
      expect(releaseSetAside(index)).toBe(1);
      expect(outboxDepth(index).sessions).toBe(2);
      // Set aside again, then pushed (acknowledged): nothing is left of it.
      setAsideSessions(index, [{ sessionId: "bad", seq: Math.max(...again.map((i) => i.seq)), reason: "x" }]);
      expect(acknowledgeOutbox(index, again)).toBe(2);
      expect(databaseOf(index).prepare("SELECT count(*) AS n FROM team_set_aside").get()).toEqual({ n: 0 });
      // Unshared: its items and its being set aside go together.
      write("gone", "/gone.jsonl", 0);
      const gone = readOutbox(index, 10).filter((i) => i.sessionId === "gone");
      setAsideSessions(index, [{ sessionId: "gone", seq: gone[0]?.seq ?? 0, reason: "x" }]);
      dropOutboxSessions(index, ["gone"]);
      expect(databaseOf(index).prepare("SELECT count(*) AS n FROM team_set_aside").get()).toEqual({ n: 0 });
      expect(readOutbox(index, 10).map((i) => i.sessionId)).toEqual(["good"]);
    });
  });

  it("a cwd is inside a root only at a folder boundary", () => {
    expect(isInsideRoot("/src/app", "/src/app")).toBe(true);
    expect(isInsideRoot("/src/app/web", "/src/app/")).toBe(true);
    expect(isInsideRoot("/src/application", "/src/app")).toBe(false);
  });
});
