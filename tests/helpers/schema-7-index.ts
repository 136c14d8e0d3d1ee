// A session index of schema 7 as ctx made it before files had ids, from one of this version, for the tests of the move
// to 8: files keyed by path, each chunk holding its file's path (`source`; a note's chunk `ctx:library-note`) with an
// index on (source, chunk_index), sessions.title stored, SQLite's default 4 KiB pages. The DDL is schema 7's, as it
// shipped (the title column last here).
import type { DatabaseSync } from "node:sqlite";

const FILES_7 = `CREATE TABLE files_7(
  path TEXT PRIMARY KEY, session_id TEXT NOT NULL, kind TEXT NOT NULL, size INTEGER, mtime_ms INTEGER,
  offset INTEGER, head TEXT, messages INTEGER NOT NULL DEFAULT 0);`;
const CHUNKS_7 = `CREATE TABLE chunks_7(
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), chunk_index INTEGER,
  first_message INTEGER, last_message INTEGER, text TEXT, token_count INTEGER, has_code INTEGER, languages TEXT,
  memory_type TEXT, source TEXT NOT NULL, start_offset INTEGER NOT NULL, starts_exchange INTEGER NOT NULL, last_uuid TEXT,
  replies INTEGER NOT NULL DEFAULT 0, own_replies INTEGER NOT NULL DEFAULT 0);`;

/** Turns the index open on `db` (alone on the file) into schema 7, its rows, ids, triggers and chunk sequence kept. */
export function downgradeToSchema7(db: DatabaseSync): void {
  const triggers = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('chunks', 'files')")
    .all() as Array<{ sql: string }>;
  const sequence = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").get() as { seq: number })?.seq;
  db.exec("PRAGMA foreign_keys = OFF");
  db.exec(`BEGIN;
    ${FILES_7}
    INSERT INTO files_7 SELECT path, session_id, kind, size, mtime_ms, offset, head, messages FROM files ORDER BY id;
    ${CHUNKS_7}
    INSERT INTO chunks_7 SELECT c.id, c.session_id, c.chunk_index, c.first_message, c.last_message, c.text,
      c.token_count, c.has_code, c.languages, c.memory_type, coalesce(f.path, 'ctx:library-note'), c.start_offset,
      c.starts_exchange, c.last_uuid, c.replies, c.own_replies FROM chunks c LEFT JOIN files f ON f.id = c.file_id;
    DROP TABLE chunks;
    DROP TABLE files;
    ALTER TABLE files_7 RENAME TO files;
    ALTER TABLE chunks_7 RENAME TO chunks;
    CREATE INDEX files_session ON files(session_id, kind);
    CREATE INDEX chunks_session ON chunks(session_id);
    CREATE INDEX chunks_source ON chunks(source, chunk_index);
    ALTER TABLE sessions DROP COLUMN title;
    ALTER TABLE sessions ADD COLUMN title TEXT;
    UPDATE sessions SET title = coalesce(ai_title, first_prompt, '');`);
  for (const { sql } of triggers) db.exec(sql);
  if (sequence !== undefined) db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'chunks'").run(sequence);
  db.exec("UPDATE meta SET value = '7' WHERE key = 'schema_version'; COMMIT");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL");
}
