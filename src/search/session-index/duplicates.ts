// The duplicates table (rules in src/core/search/duplicates.ts): which sessions are copies that added nothing, and
// the session each folds into. Recomputed at index time for the families of the sessions a sync wrote (in the same
// transaction), so a copy that later goes on, or a parent that grows, is judged again; read by search to show a
// group once, with "also in …", and by `ctx stats`. A transcript file found in two project folders under one session
// id is one row of the index; its other folders are read from the files table.
import { basename, dirname } from "node:path";
import { type DuplicateRow, findDuplicates } from "../../core/search/duplicates.ts";
import { databaseOf } from "./database.ts";
import { type LineageColumns, toLineageRow } from "./lineage.ts";
import type { SessionIndex } from "./session-index.ts";

/** Another copy of a result: a session folded into it, or the same session id in another project folder. */
export interface DuplicateCopy {
  sessionId: string;
  project: string;
}

interface FamilyRow extends LineageColumns {
  replies: number;
  own_replies: number;
}

/**
 * Recomputes the duplicates of the families of `sessionIds` (their present family, and any group they were part of
 * before). Call inside the sync's write transaction.
 */
export function refreshDuplicates(index: SessionIndex, sessionIds: Iterable<string>): void {
  const db = databaseOf(index);
  const rootOf = db.prepare("SELECT root_uuid FROM sessions WHERE id = ?");
  const groupOf = db.prepare(
    `SELECT s.root_uuid FROM duplicates d JOIN sessions s ON s.id = d.session_id
     WHERE d.session_id = ? OR d.canonical_id = ?`,
  );
  const clearFor = db.prepare("DELETE FROM duplicates WHERE session_id = ? OR canonical_id = ?");
  const family = db.prepare(
    `SELECT id, root_uuid, origin_session, copied_root, message_count, created_at, replies, own_replies
     FROM sessions WHERE root_uuid = ?`,
  );
  const insert = db.prepare("INSERT OR REPLACE INTO duplicates(session_id, canonical_id) VALUES (?, ?)");
  const roots = new Set<string>();
  for (const id of new Set(sessionIds)) {
    const root = (rootOf.get(id) as { root_uuid: string | null } | undefined)?.root_uuid ?? null;
    if (root !== null) roots.add(root);
    for (const row of groupOf.all(id, id) as Array<{ root_uuid: string | null }>) {
      if (row.root_uuid !== null) roots.add(row.root_uuid);
    }
    clearFor.run(id, id);
  }
  for (const root of roots) {
    const rows = (family.all(root) as unknown as FamilyRow[]).map(toDuplicateRow);
    for (const row of rows) clearFor.run(row.id, row.id);
    if (rows.length < 2) continue;
    for (const [copy, canonical] of findDuplicates(rows)) insert.run(copy, canonical);
  }
}

/** The canonical session of each of `ids` that is a duplicate (ids that are not are absent). */
export function readCanonicals(index: SessionIndex, ids: Iterable<string>): Map<string, string> {
  // One statement for a search's whole pool (a few hundred sessions), not one per session.
  const rows = databaseOf(index)
    .prepare("SELECT session_id, canonical_id FROM duplicates WHERE session_id IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify([...new Set(ids)])) as Array<{ session_id: string; canonical_id: string }>;
  return new Map(rows.map((row) => [row.session_id, row.canonical_id]));
}

/**
 * The other copies of each of `ids`: the sessions folded into it (their project), then its own transcript in other
 * project folders (the same id). Ids without copies are absent.
 */
export function readCopies(index: SessionIndex, ids: Iterable<string>): Map<string, DuplicateCopy[]> {
  const db = databaseOf(index);
  const folded = db.prepare(
    `SELECT d.session_id AS id, coalesce(s.project, '') AS project FROM duplicates d
     LEFT JOIN sessions s ON s.id = d.session_id WHERE d.canonical_id = ? ORDER BY s.created_at, d.session_id`,
  );
  const mainFiles = db.prepare("SELECT path FROM files WHERE session_id = ? AND kind = 'main' ORDER BY path");
  const projectOf = db.prepare("SELECT coalesce(project, '') AS project FROM sessions WHERE id = ?");
  const result = new Map<string, DuplicateCopy[]>();
  for (const id of new Set(ids)) {
    const copies = (folded.all(id) as Array<{ id: string; project: string }>).map((row) => ({
      sessionId: row.id,
      project: row.project,
    }));
    const paths = mainFiles.all(id) as Array<{ path: string }>;
    if (paths.length > 1) {
      const own = (projectOf.get(id) as { project: string } | undefined)?.project ?? "";
      for (const { path } of paths) {
        const project = basename(dirname(path));
        if (project !== own) copies.push({ sessionId: id, project });
      }
    }
    if (copies.length > 0) result.set(id, copies);
  }
  return result;
}

function toDuplicateRow(row: FamilyRow): DuplicateRow {
  return { ...toLineageRow(row), replies: Number(row.replies), ownReplies: Number(row.own_replies) };
}
