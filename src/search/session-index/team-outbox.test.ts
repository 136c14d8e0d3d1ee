// The team outbox in the session index: an ingest queues only the sessions of shared checkouts, in its own
// transaction; queueing again keeps the earliest chunk and a new seq, so an acknowledgement of what was read before
// leaves work queued meanwhile in place.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { openSessionIndex } from "./session-index.ts";
import {
  acknowledgeOutbox,
  createOutboxWriter,
  enqueueSessionsUnder,
  isInsideRoot,
  outboxDepth,
  readOutbox,
} from "./team-outbox.ts";

function withIndex<T>(dbPath: string, work: (db: ReturnType<typeof openSessionIndex>["db"]) => T): T {
  const index = openSessionIndex(dbPath);
  try {
    return work(index.db);
  } finally {
    index.close();
  }
}

describe("team outbox", () => {
  it("queues again with the smaller chunk index and a new seq; a stale acknowledgement leaves it queued", () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), "ctx-outbox-")), "index.db");
    withIndex(dbPath, (db) => {
      let now = 1_000;
      const write = createOutboxWriter(db, () => now);
      write("s1", "/a.jsonl", 5);
      write("s2", "/b.jsonl", 0);
      const read = readOutbox(db, 10);
      expect(read.map((i) => [i.sessionId, i.fromChunk])).toEqual([
        ["s1", 5],
        ["s2", 0],
      ]);
      // Queued again while a push of `read` is in flight.
      now = 2_000;
      write("s1", "/a.jsonl", 7);
      expect(acknowledgeOutbox(db, read)).toBe(1);
      const left = readOutbox(db, 10);
      expect(left).toEqual([{ sessionId: "s1", source: "/a.jsonl", fromChunk: 5, seq: 3, enqueuedAt: 1_000 }]);
      expect(outboxDepth(db)).toEqual({ sessions: 1, items: 1, oldestAt: 1_000 });
      expect(acknowledgeOutbox(db, left)).toBe(1);
      expect(outboxDepth(db)).toEqual({ sessions: 0, items: 0, oldestAt: null });
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
      (db) => db.prepare("SELECT id, cwd FROM sessions ORDER BY id").all() as Array<{ id: string; cwd: string }>,
    );
    const shared = cwds[0] as { id: string; cwd: string };
    const others = cwds.filter((s) => s.cwd !== shared.cwd);
    expect(others.length).toBeGreaterThan(0);
    // A grown transcript of the shared checkout's session is queued from its rebuilt chunk on, in the ingest.
    const queued: string[] = [];
    const main = withIndex(
      dbPath,
      (db) => (db.prepare("SELECT path FROM sessions WHERE id = ?").get(shared.id) as { path: string }).path,
    );
    const text = readFileSync(main, "utf8");
    writeFileSync(main, `${text}${text.split("\n")[0]}\n`);
    await syncIndex({ claudeDir, dbPath, teamShare: { roots: [shared.cwd], onQueued: (id) => queued.push(id) } });
    expect(queued).toEqual([shared.id]);
    const items = withIndex(dbPath, (db) => readOutbox(db, 100));
    expect(new Set(items.map((i) => i.sessionId))).toEqual(new Set([shared.id]));
    // Share's backfill: every indexed file of every session under the root, from chunk 0.
    const sessions = withIndex(dbPath, (db) => enqueueSessionsUnder(db, [shared.cwd]));
    expect(sessions).toBe(cwds.filter((s) => isInsideRoot(s.cwd, shared.cwd)).length);
    const files = withIndex(
      dbPath,
      (db) =>
        db
          .prepare(`SELECT count(*) AS n FROM files WHERE session_id IN (SELECT id FROM sessions WHERE cwd = ?)`)
          .get(shared.cwd) as { n: number },
    );
    const all = withIndex(dbPath, (db) => readOutbox(db, 100));
    expect(all.length).toBe(Number(files.n));
    expect(all.every((i) => i.fromChunk === 0)).toBe(true);
  });

  it("a cwd is inside a root only at a folder boundary", () => {
    expect(isInsideRoot("/src/app", "/src/app")).toBe(true);
    expect(isInsideRoot("/src/app/web", "/src/app/")).toBe(true);
    expect(isInsideRoot("/src/application", "/src/app")).toBe(false);
  });
});
