// The index's running counts (table `counts`): sessions, chunks and vectors in all, sessions per project and per month
// of their first message, the transcripts found in several project folders, and the size of each family of forks.
// `ctx stats`, fork history and every search read them instead of counting whole tables (issue 36: at 100,000
// sessions a count of `chunks` alone reads a few hundred MB). Triggers keep them, in the same transaction as the row
// they count, so every writer (the sync's, the library's notes, the vector fill, a delete) moves them and none can
// forget to: a figure here is the table's count, never an estimate (counts-schema.test.ts holds them to the tables'
// own counts after ingest, re-ingest, delete and rebuild).
import type { DatabaseSync } from "node:sqlite";

/** `YYYY-MM` (UTC) of an epoch-ms column, as `ctx stats` groups months. */
const month = (column: string) => `strftime('%Y-%m', ${column} / 1000, 'unixepoch')`;
const bump = (kind: string, key: string, by: "+ 1" | "- 1") =>
  `UPDATE counts SET n = n ${by} WHERE kind = '${kind}' AND key = ${key};`;
// The key's row may not exist yet: created at 1. (INSERT … SELECT needs its WHERE before an upsert's ON CONFLICT.)
const add = (kind: string, key: string, when = "1") =>
  `INSERT INTO counts(kind, key, n) SELECT '${kind}', ${key}, 1 WHERE ${when} ON CONFLICT(kind, key) DO UPDATE SET n = n + 1;`;

/** The main transcripts of a session (files_session (session_id, kind) counts them with one seek). */
const mainFiles = (session: string) => `(SELECT count(*) FROM files WHERE session_id = ${session} AND kind = 'main')`;
/**
 * Session ids whose transcript is in more than one project folder: counted when a session's second main file comes,
 * and uncounted when it is down to one again (an upsert of a file's row fires its UPDATE trigger, not its INSERT one).
 */
const SHARED_SQL = `
CREATE TRIGGER counts_file_insert AFTER INSERT ON files WHEN NEW.kind = 'main' AND ${mainFiles("NEW.session_id")} = 2
  BEGIN ${bump("total", "'shared_transcripts'", "+ 1")} END;
CREATE TRIGGER counts_file_delete AFTER DELETE ON files WHEN OLD.kind = 'main' AND ${mainFiles("OLD.session_id")} = 1
  BEGIN ${bump("total", "'shared_transcripts'", "- 1")} END;
CREATE TRIGGER counts_file_move AFTER UPDATE OF session_id, kind ON files
  WHEN OLD.session_id IS NOT NEW.session_id OR OLD.kind IS NOT NEW.kind BEGIN
  UPDATE counts SET n = n - 1 WHERE kind = 'total' AND key = 'shared_transcripts'
    AND OLD.kind = 'main' AND ${mainFiles("OLD.session_id")} = 1;
  UPDATE counts SET n = n + 1 WHERE kind = 'total' AND key = 'shared_transcripts'
    AND NEW.kind = 'main' AND ${mainFiles("NEW.session_id")} = 2;
END;`;

/**
 * Each family of sessions (one root_uuid: a session and its forks, ./lineage.ts) with its size, read again with one
 * seek of sessions_root whenever a member comes, goes or moves: fork history reads the families of two or more from
 * here instead of grouping every session by its root.
 */
const family = (root: string) => `
  INSERT INTO counts(kind, key, n) SELECT 'family', ${root}, c FROM
    (SELECT count(*) AS c FROM sessions WHERE root_uuid = ${root}) WHERE ${root} IS NOT NULL AND c > 1
    ON CONFLICT(kind, key) DO UPDATE SET n = excluded.n;
  UPDATE counts SET n = (SELECT count(*) FROM sessions WHERE root_uuid = ${root}) WHERE kind = 'family' AND key = ${root};`;
const FAMILY_SQL = `
CREATE TRIGGER counts_family_insert AFTER INSERT ON sessions WHEN NEW.root_uuid IS NOT NULL
  BEGIN ${family("NEW.root_uuid")} END;
CREATE TRIGGER counts_family_delete AFTER DELETE ON sessions WHEN OLD.root_uuid IS NOT NULL
  BEGIN ${family("OLD.root_uuid")} END;
CREATE TRIGGER counts_family_move AFTER UPDATE OF root_uuid ON sessions WHEN OLD.root_uuid IS NOT NEW.root_uuid
  BEGIN ${family("OLD.root_uuid")} ${family("NEW.root_uuid")} END;`;

/**
 * The table and its triggers. The totals' rows are there from the start, so a chunk's insert is a plain UPDATE of one
 * row (an upsert costs more, on every chunk of a full index). A project or month whose last session left keeps its
 * row at 0: readers take n > 0.
 * `UPDATE OF` triggers fire for every UPDATE that names the column, so each one is guarded by a real change.
 */
export const COUNTS_SQL = `
CREATE TABLE counts(kind TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(kind, key)) WITHOUT ROWID;
INSERT INTO counts(kind, key, n) VALUES ('total', 'sessions', 0), ('total', 'chunks', 0), ('total', 'shared_transcripts', 0);
CREATE TRIGGER counts_chunk_insert AFTER INSERT ON chunks BEGIN ${bump("total", "'chunks'", "+ 1")} END;
CREATE TRIGGER counts_chunk_delete AFTER DELETE ON chunks BEGIN ${bump("total", "'chunks'", "- 1")} END;
CREATE TRIGGER counts_session_insert AFTER INSERT ON sessions BEGIN
  ${bump("total", "'sessions'", "+ 1")}
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
${SHARED_SQL}
${FAMILY_SQL}
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
      WHERE created_at IS NOT NULL GROUP BY 2;
    INSERT INTO counts(kind, key, n) SELECT 'total', 'shared_transcripts', count(*) FROM
      (SELECT session_id FROM files WHERE kind = 'main' GROUP BY session_id HAVING count(*) > 1);
    INSERT INTO counts(kind, key, n) SELECT 'family', root_uuid, count(*) FROM sessions WHERE root_uuid IS NOT NULL
      GROUP BY root_uuid HAVING count(*) > 1;`);
}

/** One figure of the table (0 when it has no row: nothing counted yet). */
export function readCount(
  db: DatabaseSync,
  kind: "total",
  key: "sessions" | "chunks" | "vectors" | "shared_transcripts",
): number {
  const row = db.prepare("SELECT n FROM counts WHERE kind = ? AND key = ?").get(kind, key) as { n: number } | undefined;
  return Number(row?.n ?? 0);
}
