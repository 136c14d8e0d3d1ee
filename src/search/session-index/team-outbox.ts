// The team outbox: what the session index ingested for a SHARED project (docs/team.md "Push") and the team server
// has not acknowledged yet. It is a table of the index file itself, written in the SAME transaction as the ingest
// that produced the work, so a crash loses both or neither, and SQLite's write lock orders concurrent writers (a
// SessionEnd's `ctx index --file`, `ctx serve`'s watcher, a manual `ctx index`, the pusher's acknowledgements).
// One row per transcript file (`source`, the local chunks.source) of a session: the first chunk index not yet pushed.
// Enqueueing again keeps the smaller index and bumps `seq`; the pusher deletes a row only when its `seq` is still the
// one it pushed, so work queued while a push is in flight is never acknowledged by it.
// Not in the index's TABLES list: a rebuild of the index keeps the queue (the rebuild re-ingests, and queues, anyway).
// A session the server refused for a reason of its own (its data, not the server or the connection) is SET ASIDE
// (team_set_aside, created when first needed): its items stay queued but are not read again until something of it is
// queued again (an item with a later `seq`: the session changed, `ctx index --full`, `ctx team share`) or
// `ctx team push --retry-set-aside` releases it, so one bad session never blocks the rest (issue 31).
import type { DatabaseSync } from "node:sqlite";
import { databaseOf } from "./database.ts";
import type { SessionIndex } from "./session-index.ts";

export const TEAM_OUTBOX_SQL = `CREATE TABLE IF NOT EXISTS team_outbox(
  session_id TEXT NOT NULL, source TEXT NOT NULL, from_chunk INTEGER NOT NULL, seq INTEGER NOT NULL,
  enqueued_at INTEGER NOT NULL, PRIMARY KEY(session_id, source)) WITHOUT ROWID`;

export interface OutboxItem {
  sessionId: string;
  /** The transcript file the chunks came from (the local chunks.source). */
  source: string;
  /** Chunks from this index on are pushed (and those past the file's last are deleted on the server). */
  fromChunk: number;
  seq: number;
  enqueuedAt: number;
}

function ensureTeamOutbox(db: DatabaseSync): void {
  db.exec(TEAM_OUTBOX_SQL);
}

export const TEAM_SET_ASIDE_SQL = `CREATE TABLE IF NOT EXISTS team_set_aside(
  session_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, reason TEXT NOT NULL, set_aside_at INTEGER NOT NULL) WITHOUT ROWID`;

function hasOutbox(db: DatabaseSync): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_outbox'").get() !== undefined;
}

function hasSetAside(db: DatabaseSync): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_set_aside'").get() !== undefined;
}

/** The sessions held back: set aside, and nothing of them queued since (no item with a later seq). */
const HELD_SESSIONS = `SELECT a.session_id FROM team_set_aside a
  WHERE a.seq >= (SELECT max(h.seq) FROM team_outbox h WHERE h.session_id = a.session_id)`;

/** A WHERE clause leaving out the held sessions' items (none before anything was ever set aside). */
function notHeld(db: DatabaseSync): string {
  return hasSetAside(db) ? `WHERE session_id NOT IN (${HELD_SESSIONS})` : "";
}

export type OutboxWriter = (sessionId: string, source: string, fromChunk: number) => void;

/** Queues (session, source) from `fromChunk`; call inside the ingest's transaction. */
export function createOutboxWriter(index: SessionIndex, now: () => number = Date.now): OutboxWriter {
  const db = databaseOf(index);
  ensureTeamOutbox(db);
  const insert = db.prepare(
    `INSERT INTO team_outbox(session_id, source, from_chunk, seq, enqueued_at)
     VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM team_outbox), ?)
     ON CONFLICT(session_id, source) DO UPDATE SET from_chunk = min(from_chunk, excluded.from_chunk), seq = excluded.seq`,
  );
  return (sessionId, source, fromChunk) => {
    insert.run(sessionId, source, Math.max(0, Math.trunc(fromChunk)), now());
  };
}

/** The oldest `limit` items (whole sessions: every source of a session read is included), held sessions left out. */
export function readOutbox(index: SessionIndex, limit: number): OutboxItem[] {
  const db = databaseOf(index);
  if (!hasOutbox(db)) return [];
  const rows = db
    .prepare(
      `SELECT o.* FROM team_outbox o JOIN (
         SELECT session_id, min(enqueued_at) AS first FROM team_outbox ${notHeld(db)}
         GROUP BY session_id ORDER BY first, session_id LIMIT ?
       ) s ON s.session_id = o.session_id ORDER BY s.first, o.session_id, o.source`,
    )
    .all(limit) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    sessionId: String(row.session_id),
    source: String(row.source),
    fromChunk: Number(row.from_chunk),
    seq: Number(row.seq),
    enqueuedAt: Number(row.enqueued_at),
  }));
}

/**
 * Deletes the items that were not queued again since they were read; returns how many went. Their sessions are
 * no longer set aside (they went through, or were dropped).
 */
export function acknowledgeOutbox(index: SessionIndex, items: readonly OutboxItem[]): number {
  const db = databaseOf(index);
  if (items.length === 0) return 0;
  const remove = db.prepare("DELETE FROM team_outbox WHERE session_id = ? AND source = ? AND seq = ?");
  const release = hasSetAside(db) ? db.prepare("DELETE FROM team_set_aside WHERE session_id = ?") : null;
  let removed = 0;
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const item of items) removed += Number(remove.run(item.sessionId, item.source, item.seq).changes);
    for (const id of new Set(items.map((item) => item.sessionId))) release?.run(id);
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return removed;
}

export interface OutboxDepth {
  /** Sessions with something to push. */
  sessions: number;
  items: number;
  /** When the oldest item was queued (ms), or null when empty. */
  oldestAt: number | null;
}

/** What waits to be pushed; set-aside sessions not counted (`readSetAside` lists them). */
export function outboxDepth(index: SessionIndex): OutboxDepth {
  const db = databaseOf(index);
  if (!hasOutbox(db)) return { sessions: 0, items: 0, oldestAt: null };
  const row = db
    .prepare(
      `SELECT count(DISTINCT session_id) AS sessions, count(*) AS items, min(enqueued_at) AS oldest FROM team_outbox
       ${notHeld(db)}`,
    )
    .get() as { sessions: number; items: number; oldest: number | null };
  return {
    sessions: Number(row.sessions),
    items: Number(row.items),
    oldestAt: row.oldest === null ? null : Number(row.oldest),
  };
}

/** Drops every item of these sessions (their project is no longer shared), and their being set aside. */
export function dropOutboxSessions(index: SessionIndex, sessionIds: readonly string[]): void {
  const db = databaseOf(index);
  if (sessionIds.length === 0 || !hasOutbox(db)) return;
  const remove = db.prepare("DELETE FROM team_outbox WHERE session_id = ?");
  const release = hasSetAside(db) ? db.prepare("DELETE FROM team_set_aside WHERE session_id = ?") : null;
  for (const id of sessionIds) {
    remove.run(id);
    release?.run(id);
  }
}

export interface SetAsideSession {
  sessionId: string;
  /** Why the server refused it: one line, without passwords (src/team/set-aside.ts words it). */
  reason: string;
  /** When it was set aside (ms). */
  at: number;
}

/**
 * Sets these sessions aside with their reason: `seq` is the last seq of the session's items that were tried, so an
 * item queued for the session after it (a later seq) makes the session pushed again.
 */
export function setAsideSessions(
  index: SessionIndex,
  sessions: ReadonlyArray<{ sessionId: string; seq: number; reason: string }>,
  now: () => number = Date.now,
): void {
  if (sessions.length === 0) return;
  const db = databaseOf(index);
  db.exec(TEAM_SET_ASIDE_SQL);
  const upsert = db.prepare(
    `INSERT INTO team_set_aside(session_id, seq, reason, set_aside_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET seq = excluded.seq, reason = excluded.reason,
       set_aside_at = excluded.set_aside_at`,
  );
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const s of sessions) upsert.run(s.sessionId, s.seq, s.reason, now());
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/** The sessions set aside and still held back (nothing of them queued since), oldest first. */
export function readSetAside(index: SessionIndex): SetAsideSession[] {
  const db = databaseOf(index);
  if (!hasOutbox(db) || !hasSetAside(db)) return [];
  const rows = db
    .prepare(
      `SELECT session_id, reason, set_aside_at FROM team_set_aside WHERE session_id IN (${HELD_SESSIONS})
       ORDER BY set_aside_at, session_id`,
    )
    .all() as Array<{ session_id: string; reason: string; set_aside_at: number }>;
  return rows.map((row) => ({ sessionId: row.session_id, reason: row.reason, at: Number(row.set_aside_at) }));
}

/** Lets every set-aside session be pushed again (`ctx team push --retry-set-aside`); returns how many were held. */
export function releaseSetAside(index: SessionIndex): number {
  const db = databaseOf(index);
  if (!hasOutbox(db) || !hasSetAside(db)) return 0;
  const held = readSetAside(index).length;
  db.exec("DELETE FROM team_set_aside");
  return held;
}

/** True when `cwd` is `root` or inside it (both absolute, `/`-separated). */
export function isInsideRoot(cwd: string, root: string): boolean {
  const base = root.endsWith("/") ? root.slice(0, -1) : root;
  return cwd === base || cwd.startsWith(`${base}/`);
}

/**
 * Queues what an ingest wrote for a session whose cwd is inside one of `roots` (the shared checkouts); call inside
 * the ingest's transaction. Returns whether it was queued. The outbox table is made when something is first queued.
 */
export function createSharedOutboxWriter(
  index: SessionIndex,
  roots: readonly string[],
): (sessionId: string, source: string, fromChunk: number) => boolean {
  const cwdOf = databaseOf(index).prepare("SELECT cwd FROM sessions WHERE id = ?");
  let write: OutboxWriter | null = null;
  return (sessionId, source, fromChunk) => {
    const cwd = (cwdOf.get(sessionId) as { cwd: string | null } | undefined)?.cwd ?? null;
    if (cwd === null || !roots.some((root) => isInsideRoot(cwd, root))) return false;
    write ??= createOutboxWriter(index);
    write(sessionId, source, fromChunk);
    return true;
  };
}

/** Every session with something queued (held back or not) and its cwd; null when the session left the index. */
export function readQueuedSessions(index: SessionIndex): Array<{ sessionId: string; cwd: string | null }> {
  const db = databaseOf(index);
  if (!hasOutbox(db)) return [];
  const rows = db
    .prepare("SELECT DISTINCT o.session_id AS id, s.cwd FROM team_outbox o LEFT JOIN sessions s ON s.id = o.session_id")
    .all() as Array<{ id: string; cwd: string | null }>;
  return rows.map((row) => ({ sessionId: row.id, cwd: row.cwd }));
}

/**
 * Queues every indexed file of the sessions whose cwd is inside one of `roots`, from its first chunk: what
 * `ctx team share` does for the sessions indexed before the project was shared. Returns the sessions queued.
 */
export function enqueueSessionsUnder(
  index: SessionIndex,
  roots: readonly string[],
  now: () => number = Date.now,
): number {
  if (roots.length === 0) return 0;
  const db = databaseOf(index);
  const sessions = (
    db.prepare("SELECT id, cwd FROM sessions WHERE cwd IS NOT NULL").all() as Array<{
      id: string;
      cwd: string;
    }>
  ).filter((s) => roots.some((root) => isInsideRoot(s.cwd, root)));
  if (sessions.length === 0) return 0;
  const files = db.prepare("SELECT path FROM files WHERE session_id = ?");
  db.exec("BEGIN IMMEDIATE");
  try {
    const write = createOutboxWriter(index, now);
    for (const session of sessions) {
      for (const { path } of files.all(session.id) as Array<{ path: string }>) write(session.id, path, 0);
    }
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return sessions.length;
}
