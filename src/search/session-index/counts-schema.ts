// The index's running counts (table `counts`): sessions, chunks and vectors in all, sessions per project and per month
// of their first message. `ctx stats`, the search's project list and its session count read them instead of counting
// whole tables (issue 36: at 100,000 sessions a count of `chunks` alone reads a few hundred MB). Triggers keep them,
// in the same transaction as the row they count, so every writer (the sync's, the library's notes, the vector fill,
// a delete) moves them and none can forget to: a figure here is the table's count, never an estimate
// (counts-schema.test.ts holds them to the real counts after ingest, re-ingest, delete and rebuild).
import type { DatabaseSync } from "node:sqlite";

/** `YYYY-MM` (UTC) of an epoch-ms column, as `ctx stats` groups months. */
const month = (column: string) => `strftime('%Y-%m', ${column} / 1000, 'unixepoch')`;
const bump = (kind: string, key: string, by: "+ 1" | "- 1") =>
  `UPDATE counts SET n = n ${by} WHERE kind = '${kind}' AND key = ${key};`;
// The key's row may not exist yet: created at 1. (INSERT … SELECT needs its WHERE before an upsert's ON CONFLICT.)
const add = (kind: string, key: string, when = "1") =>
  `INSERT INTO counts(kind, key, n) SELECT '${kind}', ${key}, 1 WHERE ${when} ON CONFLICT(kind, key) DO UPDATE SET n = n + 1;`;

/**
 * The table and its triggers. A project or month whose last session left keeps its row at 0: readers take n > 0.
 * `UPDATE OF` triggers fire for every UPDATE that names the column, so each one is guarded by a real change.
 */
export const COUNTS_SQL = `
CREATE TABLE counts(kind TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(kind, key)) WITHOUT ROWID;
CREATE TRIGGER counts_chunk_insert AFTER INSERT ON chunks BEGIN ${add("total", "'chunks'")} END;
CREATE TRIGGER counts_chunk_delete AFTER DELETE ON chunks BEGIN ${bump("total", "'chunks'", "- 1")} END;
CREATE TRIGGER counts_session_insert AFTER INSERT ON sessions BEGIN
  ${add("total", "'sessions'")}
  ${add("project", "coalesce(NEW.project, '')")}
  ${add("month", month("NEW.created_at"), "NEW.created_at IS NOT NULL")}
END;
CREATE TRIGGER counts_session_delete AFTER DELETE ON sessions BEGIN
  ${bump("total", "'sessions'", "- 1")}
  ${bump("project", "coalesce(OLD.project, '')", "- 1")}
  ${bump("month", month("OLD.created_at"), "- 1")}
END;
CREATE TRIGGER counts_session_project AFTER UPDATE OF project ON sessions
  WHEN coalesce(OLD.project, '') IS NOT coalesce(NEW.project, '') BEGIN
  ${bump("project", "coalesce(OLD.project, '')", "- 1")}
  ${add("project", "coalesce(NEW.project, '')")}
END;
CREATE TRIGGER counts_session_month AFTER UPDATE OF created_at ON sessions
  WHEN ${month("OLD.created_at")} IS NOT ${month("NEW.created_at")} BEGIN
  ${bump("month", month("OLD.created_at"), "- 1")}
  ${add("month", month("NEW.created_at"), "NEW.created_at IS NOT NULL")}
END;
`;

/**
 * chunk_vectors is made by the vector fill when an embedder first runs (./vectors.ts), so its count and triggers come
 * with it. `INSERT OR REPLACE` replaces a chunk's vector without firing a delete trigger (recursive_triggers is off),
 * so an insert counts only when the chunk had none.
 */
export const VECTOR_COUNT_SQL = `
INSERT INTO counts(kind, key, n) SELECT 'total', 'vectors', count(*) FROM chunk_vectors WHERE 1
  ON CONFLICT(kind, key) DO NOTHING;
CREATE TRIGGER IF NOT EXISTS counts_vector_insert BEFORE INSERT ON chunk_vectors
  WHEN NOT EXISTS (SELECT 1 FROM chunk_vectors WHERE chunk_id = NEW.chunk_id) BEGIN ${add("total", "'vectors'")} END;
CREATE TRIGGER IF NOT EXISTS counts_vector_delete AFTER DELETE ON chunk_vectors BEGIN
  ${bump("total", "'vectors'", "- 1")}
END;
`;

/** Sets every count from the tables themselves: an index that had none (the move from schema 6). */
export function fillCounts(db: DatabaseSync): void {
  db.exec(`DELETE FROM counts;
    INSERT INTO counts(kind, key, n) SELECT 'total', 'sessions', count(*) FROM sessions;
    INSERT INTO counts(kind, key, n) SELECT 'total', 'chunks', count(*) FROM chunks;
    INSERT INTO counts(kind, key, n) SELECT 'project', coalesce(project, ''), count(*) FROM sessions
      GROUP BY coalesce(project, '');
    INSERT INTO counts(kind, key, n) SELECT 'month', ${month("created_at")}, count(*) FROM sessions
      WHERE created_at IS NOT NULL GROUP BY 2;`);
}

/** One figure of the table (0 when it has no row: nothing counted yet). */
export function readCount(db: DatabaseSync, kind: "total", key: "sessions" | "chunks" | "vectors"): number {
  const row = db.prepare("SELECT n FROM counts WHERE kind = ? AND key = ?").get(kind, key) as { n: number } | undefined;
  return Number(row?.n ?? 0);
}
