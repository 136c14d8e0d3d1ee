// The session index's tables (docs/fork-detect.md "The session index" says what every backend holds).
// Columns beyond that list: files.messages (ordinals consumed, to continue numbering), sessions.ai_title /
// first_prompt (where the title comes from: sessions.title is computed from them, not stored), chunks.file_id /
// start_offset / starts_exchange (the files row of the transcript a chunk came from, the byte offset of its first
// message's line, and whether that message opens an exchange: a grown file is re-chunked from its last chunk that
// opens an exchange), chunks.last_uuid (the uuid of the chunk's last
// line: `claude --resume <id> --fork-session --resume-session-at <uuid>` forks there), sessions.root_uuid /
// origin_session / copied_root (lineage clues, src/search/session-index/lineage.ts), chunks.replies / own_replies
// (main-chain assistant replies first seen in the chunk, and those not copied from another session; summed into
// sessions.replies / own_replies), duplicates (each copy that added nothing of its own, and the session it folds
// into: ./duplicates.ts, rules in src/core/search/duplicates.ts).
//
// chunks.text is the chunk's text as ./chunk-text.ts stores it: deflated (a BLOB) when that is smaller, else plain.
// chunks.last_uuid is the uuid as ./uuid-value.ts stores it: 16 bytes (a BLOB) for Claude Code's form, else the text.
//
// chunks.id is AUTOINCREMENT: an id is never reused, so a vector (chunk_vectors, keyed by chunk id, written by
// another process) can never be taken for a newer chunk's.
//
// chunks.file_id is files.id (an INTEGER PRIMARY KEY: a plain rowid may change on VACUUM), not the transcript's
// path: the path on every chunk and in chunks' (source, chunk_index) index was 7% of the file (schema 7).
//
// chunks_fts is contentless (content='') with contentless_delete: it indexes tokenizeForSearch(text), a
// different stream from chunks.text, so an external-content table (which re-tokenizes chunks.text on
// delete and rebuild) would disagree with what was indexed. Its tokenizer splits on whitespace only (every
// printable ASCII character is a token character): the code-aware token stream is the authority.
//
// memory_topics holds Claude Code's auto-memory topic files (`projects/<project>/memory/*.md`, the "deep" layer),
// redacted; memory_topics_fts indexes tokenizeForSearch(name, description, body) the same contentless way. Its
// rowid is memory_topics.id (an INTEGER PRIMARY KEY: a plain rowid may change on VACUUM), path is the key.
//
// annotations mirrors the session library (store/library/library-state.ts, the truth: stars, the person's labels, a
// note), refilled by every sync (./annotations.ts): keyed by session id without a foreign key, since a session may be
// annotated before it is indexed. A note is also one chunk of its session (no file: file_id NULL, chunk_index -1,
// note_chunk the chunk's id), so its words count as the session's words in BM25 with the index's own statistics.
// Labels are not `sessions.tags` (languages and memory markers, recomputed on every ingest).
//
// counts holds the running counts `ctx stats` and every search read (./counts-schema.ts, kept by triggers).
// sessions_project carries updated_at and files_session kind, so a project's last activity and the transcripts found
// in several folders are read from the index alone.
import type { DatabaseSync } from "node:sqlite";
import { COUNTS_SQL, fillCounts, VECTOR_COUNT_SQL } from "./counts-schema.ts";

/**
 * Bump on any change below or in how a column is stored: an index with another version is dropped and rebuilt by
 * the next sync (the sync says so). 5: chunks.text deflated. 6: annotations (the session library's mirror), replies /
 * own_replies and the duplicates table. 7: the counts table and its triggers, sessions_project (project, updated_at),
 * files_session (session_id, kind). 8: files.id and chunks.file_id in place of chunks.source (the path), and
 * sessions.title computed from ai_title and first_prompt instead of stored beside them. An index of schema 6 or 7 is
 * moved to 8 in place (upgradeFrom6, upgradeFrom7), not rebuilt.
 */
export const SCHEMA_VERSION = 8;

/** The schema versions an index is moved from in place: a reader of one says `ctx index` updates it. */
export const UPGRADED_IN_PLACE: readonly number[] = [6, 7];

/**
 * How transcripts are read into the index (which lines become messages, their text, the chunks, the tokens), kept in
 * `meta` as `read_version` (absent: 0, an index made before it was kept). Bump it with a change to reading whose gain
 * an index already built should get: the next sync of every folder (`ctx index`, the watcher's, a search's refresh;
 * not SessionEnd's one session) marks every indexed file to be read again from its start, and reads them, resumably,
 * while searches use what is indexed (IndexWriter.markForReread; docs/fork-detect.md). 1: failed tools' and commands'
 * output, other sessions' `summary` records dropped, chunks without overlap (each came with "until `ctx reindex`").
 * 2: British spellings read as American ones and negative contractions typed without the apostrophe as with it
 * (core/search/word-forms.ts); memory topics and notes are tokenized again with the files.
 */
export const READ_VERSION = 2;

/**
 * The page size of a new index file, and of one whose tables are all made again (another version's, `ctx reindex`)
 * when no other process has it open. SQLite's default 4 KiB leaves ~17% of the chunks table's pages unused (rows of
 * ~1.2 KB of deflated text, the longer ones spilling into overflow pages): 16 KiB made the 10,000-session index 8%
 * smaller (8 KiB: 5%; 32 KiB: no smaller than 16), and search no slower (docs/performance.md "Index size"). Any other
 * index keeps the page size it was made with: in WAL mode not even VACUUM changes it.
 */
export const PAGE_SIZE = 16_384;

/**
 * The meta key set when every table is about to be written whole (a new or rebuilt index, every file read again by
 * newer rules or by `ctx index --full`) and cleared by the VACUUM after the first sync that ends with nothing left to
 * read (./maintenance.ts vacuumAfterWholeSync).
 */
export const VACUUM_PENDING = "vacuum_pending";

const SQLITE_BUSY = 5;
const TOKEN_CHARS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const TOKENIZER = `unicode61 remove_diacritics 0 tokenchars ${sqlString(TOKEN_CHARS)}`;

const filesTable = (name: string) => `CREATE TABLE ${name}(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL, kind TEXT NOT NULL, size INTEGER,
  mtime_ms INTEGER, offset INTEGER, head TEXT, messages INTEGER NOT NULL DEFAULT 0);`;
const chunksTable = (name: string) => `CREATE TABLE ${name}(
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), chunk_index INTEGER,
  first_message INTEGER, last_message INTEGER, text TEXT, token_count INTEGER, has_code INTEGER, languages TEXT,
  memory_type TEXT, file_id INTEGER REFERENCES files(id), start_offset INTEGER NOT NULL,
  starts_exchange INTEGER NOT NULL, last_uuid TEXT, replies INTEGER NOT NULL DEFAULT 0,
  own_replies INTEGER NOT NULL DEFAULT 0);`;
const CHUNK_INDEXES = `CREATE INDEX chunks_session ON chunks(session_id);
CREATE INDEX chunks_file ON chunks(file_id, chunk_index);`;

const SESSION_TITLE = "title TEXT GENERATED ALWAYS AS (coalesce(ai_title, first_prompt, '')) VIRTUAL";

const CREATE = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
${filesTable("files")}
CREATE INDEX files_session ON files(session_id, kind);
CREATE TABLE sessions(
  id TEXT PRIMARY KEY, project TEXT, cwd TEXT, path TEXT, git_branch TEXT, created_at INTEGER, updated_at INTEGER,
  message_count INTEGER, ${SESSION_TITLE}, tags TEXT, memory_markers TEXT, ai_title TEXT, first_prompt TEXT,
  root_uuid TEXT, origin_session TEXT, copied_root INTEGER NOT NULL DEFAULT 0,
  replies INTEGER NOT NULL DEFAULT 0, own_replies INTEGER NOT NULL DEFAULT 0);
CREATE INDEX sessions_root ON sessions(root_uuid);
CREATE INDEX sessions_updated ON sessions(updated_at);
CREATE INDEX sessions_project ON sessions(project, updated_at);
${chunksTable("chunks")}
${CHUNK_INDEXES}
CREATE TABLE duplicates(session_id TEXT PRIMARY KEY, canonical_id TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX duplicates_canonical ON duplicates(canonical_id);
CREATE VIRTUAL TABLE chunks_fts USING fts5(tokens, content='', contentless_delete=1, tokenize=${sqlString(TOKENIZER)});
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, row);
CREATE TABLE memory_topics(
  id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, project TEXT NOT NULL, name TEXT NOT NULL,
  description TEXT NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL, mtime_ms INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE INDEX memory_topics_project ON memory_topics(project);
CREATE VIRTUAL TABLE memory_topics_fts USING fts5(tokens, content='', contentless_delete=1, tokenize=${sqlString(TOKENIZER)});
CREATE VIRTUAL TABLE memory_topics_vocab USING fts5vocab(memory_topics_fts, row);
CREATE TABLE annotations(
  session_id TEXT PRIMARY KEY, starred INTEGER NOT NULL, labels TEXT NOT NULL, note TEXT, updated_at INTEGER NOT NULL,
  note_chunk INTEGER);
${COUNTS_SQL}`;

const TABLES = [
  "counts",
  "annotations",
  "duplicates",
  "memory_topics_vocab",
  "memory_topics_fts",
  "memory_topics",
  "chunks_vocab",
  "chunks_fts",
  "chunk_vectors",
  "chunks",
  "files",
  "sessions",
  "meta",
];

export function readSchemaVersion(db: DatabaseSync): number | null {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (table === undefined) return null;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row === undefined ? null : Number(row.value);
}

/**
 * Creates the tables, or drops and recreates them when they were made by another schema version. Returns the
 * version of the tables it dropped (null for a new file, or when nothing changed).
 */
export function ensureSchema(db: DatabaseSync): number | null {
  const found = readSchemaVersion(db);
  if (found === SCHEMA_VERSION) return null;
  // Each step does nothing unless the index is at its version under the write lock (another process may move it).
  if (found === 6) upgradeFrom6(db);
  if (readSchemaVersion(db) === 7) upgradeFrom7(db);
  if (readSchemaVersion(db) === SCHEMA_VERSION) return null;
  const dropped = rebuildSchema(db, false);
  // The old tables' pages are free now: VACUUM gives them back to the file system (the new tables are empty).
  if (dropped !== null) {
    try {
      vacuumFile(db);
    } catch {
      // Another connection is busy: the pages are reused by the rebuild instead.
    }
  }
  return dropped;
}

/** Gives a new, empty file PAGE_SIZE (a file with pages keeps its own): before anything is written to it. */
export function setNewFilePageSize(db: DatabaseSync): void {
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
}

/**
 * VACUUM, which rewrites the file at PAGE_SIZE when it has another and no other connection has it open: the page size
 * changes only outside WAL, and leaving WAL needs the file to itself (SQLite refuses at once, without waiting, when
 * another connection has it: the VACUUM then keeps the page size). Throws what VACUUM throws.
 */
export function vacuumFile(db: DatabaseSync): void {
  if (readPageSize(db) === PAGE_SIZE || !leaveWal(db)) {
    db.exec("VACUUM");
    return;
  }
  try {
    db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    db.exec("VACUUM");
  } finally {
    try {
      db.exec("PRAGMA journal_mode = WAL");
    } catch {
      // Another process opened the file meanwhile: the next open for writing puts it back in WAL (enableWal).
    }
  }
}

function readPageSize(db: DatabaseSync): number {
  return Number((db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size);
}

/** True when the file is out of WAL now; false when another connection has it open (SQLITE_BUSY). */
function leaveWal(db: DatabaseSync): boolean {
  try {
    const row = db.prepare("PRAGMA journal_mode = DELETE").get() as { journal_mode?: string } | undefined;
    return row?.journal_mode === "delete";
  } catch (error) {
    const code = (error as { errcode?: number } | null)?.errcode;
    if (code !== undefined && (code & 0xff) === SQLITE_BUSY) return false;
    throw error;
  }
}

/** Drops every table of the index (vectors included) and creates them empty: `ctx reindex`. */
export function resetSchema(db: DatabaseSync): void {
  rebuildSchema(db, true);
}

/** Returns the version of the tables it dropped: null when there were none (a new file) or none needed it. */
function rebuildSchema(db: DatabaseSync, always: boolean): number | null {
  db.exec("BEGIN IMMEDIATE");
  try {
    // Read again under the write lock: another process may have rebuilt it meanwhile.
    const found = readSchemaVersion(db);
    let dropped: number | null = null;
    if (always || found !== SCHEMA_VERSION) {
      dropped = found !== null && Number.isFinite(found) ? found : hasTable(db, "chunks") ? 0 : null;
      for (const table of TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
      db.exec(CREATE);
      db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
      // Empty tables are read by this version's rules from the start.
      db.prepare("INSERT INTO meta(key, value) VALUES ('read_version', ?)").run(String(READ_VERSION));
      // Their first whole sync is followed by a VACUUM (./maintenance.ts vacuumAfterWholeSync).
      db.prepare("INSERT INTO meta(key, value) VALUES (?, '1')").run(VACUUM_PENDING);
    }
    db.exec("COMMIT");
    return dropped;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Schema 7 only adds to 6 (the counts, two wider indexes): a person with 100,000 sessions keeps their index instead of
 * waiting for a full rebuild (1.4 s at 100,000 sessions, where a rebuild takes many minutes). The counts are taken
 * from the tables once. Does nothing when the index is not at 6 under the write lock (another process moved it).
 */
function upgradeFrom6(db: DatabaseSync): void {
  inWriteTransaction(db, () => {
    if (readSchemaVersion(db) !== 6) return;
    db.exec(`DROP INDEX IF EXISTS sessions_project; CREATE INDEX sessions_project ON sessions(project, updated_at);
      DROP INDEX IF EXISTS files_session; CREATE INDEX files_session ON files(session_id, kind);
      ${COUNTS_SQL}`);
    fillCounts(db);
    if (hasTable(db, "chunk_vectors")) db.exec(VECTOR_COUNT_SQL);
    db.prepare("UPDATE meta SET value = '7' WHERE key = 'schema_version'").run();
  });
}

/**
 * Schema 8 keeps 7's rows and gives each file an id that its chunks hold instead of its path: files and chunks are
 * copied into tables of the new shape (chunk ids, and so the FTS rows and vectors keyed by them, kept; the chunk id
 * sequence too), the old ones dropped, and their indexes and triggers (the counts', the vectors') made again; a
 * chunk whose path has no files row (a note's, `ctx:library-note` in 7) gets no file; sessions.title becomes
 * computed. One transaction. Then the file is rewritten (vacuumFile) to give the old tables' pages back, at
 * PAGE_SIZE when no other process has it open. 1.8 s at 10,000 sessions and 46-51 s at 100,000 (most of it the
 * VACUUM; a loaded machine), where a rebuild re-reads every transcript (minutes; docs/performance.md "Index size").
 * Does nothing when the index is not at 7 under the write lock.
 */
function upgradeFrom7(db: DatabaseSync): void {
  // The tables are dropped and renamed with their references: checked once, at the end, instead of on every step.
  db.exec("PRAGMA foreign_keys = OFF");
  let moved = false;
  try {
    inWriteTransaction(db, () => {
      if (readSchemaVersion(db) !== 7) return;
      const sequence = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").get() as
        | { seq: number }
        | undefined;
      const triggers = db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('chunks', 'files')")
        .all() as Array<{ sql: string }>;
      db.exec(`${filesTable("files_v8")}
        INSERT INTO files_v8(path, session_id, kind, size, mtime_ms, offset, head, messages)
          SELECT path, session_id, kind, size, mtime_ms, offset, head, messages FROM files ORDER BY rowid;
        ${chunksTable("chunks_v8")}
        INSERT INTO chunks_v8(id, session_id, chunk_index, first_message, last_message, text, token_count, has_code,
          languages, memory_type, file_id, start_offset, starts_exchange, last_uuid, replies, own_replies)
          SELECT c.id, c.session_id, c.chunk_index, c.first_message, c.last_message, c.text, c.token_count, c.has_code,
            c.languages, c.memory_type, f.id, c.start_offset, c.starts_exchange, c.last_uuid, c.replies, c.own_replies
          FROM chunks c LEFT JOIN files_v8 f ON f.path = c.source ORDER BY c.id;
        DROP TABLE chunks;
        DROP TABLE files;
        ALTER TABLE files_v8 RENAME TO files;
        ALTER TABLE chunks_v8 RENAME TO chunks;
        CREATE INDEX files_session ON files(session_id, kind);
        ${CHUNK_INDEXES}
        ALTER TABLE sessions DROP COLUMN title;
        ALTER TABLE sessions ADD COLUMN ${SESSION_TITLE};`);
      for (const { sql } of triggers) db.exec(sql);
      // The copy's sequence is its largest id (0 when it has none): the old one may be past it (last chunks deleted).
      if (sequence !== undefined) {
        db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'chunks'").run(sequence.seq);
      }
      const broken = db.prepare("PRAGMA foreign_key_check").all();
      if (broken.length > 0) throw new Error(`schema 8 upgrade: ${broken.length} rows break a foreign key`);
      db.prepare("UPDATE meta SET value = '8' WHERE key = 'schema_version'").run();
      moved = true;
    });
  } finally {
    db.exec("PRAGMA foreign_keys = ON");
  }
  if (!moved) return;
  try {
    vacuumFile(db);
  } catch {
    // Another connection is busy: the old tables' pages are reused as the index grows instead.
  }
}

/** Runs `work` in a BEGIN IMMEDIATE transaction: committed when it returns, rolled back when it throws. */
function inWriteTransaction(db: DatabaseSync, work: () => void): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    work();
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

export function hasTable(db: DatabaseSync, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(name) !== undefined;
}
