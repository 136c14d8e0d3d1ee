// Writes to the session index for incremental sync: file positions, session rows, chunks with their FTS
// rows (and the vectors of deleted chunks). Prepared once per sync; the caller wraps each file in a transaction.
import { sep } from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { IndexedChunk, MemoryType } from "../../core/search/model.ts";
import { tokenizeForSearch } from "../../core/search/tokens.ts";
import { packChunkText, type TextDictionary } from "./chunk-text.ts";
import { databaseOf } from "./database.ts";
import { hasTable, VACUUM_PENDING } from "./schema.ts";
import type { SessionIndex } from "./session-index.ts";
import { ensureTextDictionary, textDictionaryOf } from "./text-dictionary.ts";
import { packUuid } from "./uuid-value.ts";

export interface FileRecord {
  path: string;
  sessionId: string;
  kind: "main" | "subagent";
  size: number;
  mtimeMs: number;
  /** Bytes ingested (up to the end of the last complete line). */
  offset: number;
  /** `<length>:<sha1>` of the file's first bytes; a different value at the same length = replaced. */
  head: string;
  /** Messages ingested (the next message's ordinal). */
  messages: number;
}

/** A file's row as the index holds it: its record and the id its chunks are written with. */
export interface StoredFile extends FileRecord {
  id: number;
}

/** What tells whether a file changed since it was indexed (a FileRecord's first fields). */
export type FileStamp = Pick<FileRecord, "sessionId" | "kind" | "size" | "mtimeMs">;

/**
 * A file's size and mtime as one string, as fileStamps() reads them. With the path they tell an unchanged file: the
 * path alone decides a file's session and kind (discover.ts), so those need no comparing here.
 */
export function fileStampOf(file: Pick<FileStamp, "size" | "mtimeMs">): string {
  return `${file.size}:${file.mtimeMs}`;
}

/**
 * A folder's indexed files as IndexWriter.fileStamps reads them, in the index's path order: their paths joined by NUL
 * (no path holds one; "" for none), and each one's size and mtime in the same order.
 */
export interface FolderStamps {
  paths: string;
  sizes: number[];
  mtimes: number[];
}

/** Whether `files`, in the order given, are the folder's indexed files with the same sizes and mtimes. */
export function sameStamps(stamps: FolderStamps, files: ReadonlyArray<FileStamp & { path: string }>): boolean {
  if (files.length !== stamps.sizes.length) return false;
  for (let i = 0; i < files.length; i += 1) {
    const file = files[i] as FileStamp;
    if (file.size !== stamps.sizes[i] || file.mtimeMs !== stamps.mtimes[i]) return false;
  }
  return stamps.paths === files.map((file) => file.path).join("\0");
}

/** The folder's indexed files by path, each with its fileStampOf. */
export function stampsByPath(stamps: FolderStamps): Map<string, string> {
  const byPath = new Map<string, string>();
  if (stamps.paths === "") return byPath;
  stamps.paths.split("\0").forEach((path, i) => {
    byPath.set(path, fileStampOf({ size: stamps.sizes[i] ?? -1, mtimeMs: stamps.mtimes[i] ?? -1 }));
  });
  return byPath;
}

/** Where a grown file's re-read starts: the first chunk to rebuild. */
export interface RestartPoint {
  chunkIndex: number;
  firstMessage: number;
  startOffset: number;
}

/** What a file read adds to its session's row; nulls leave the stored value alone. */
export interface SessionUpdate {
  id: string;
  project: string;
  /** Set for the main transcript; a subagent transcript only creates the row if it is missing. */
  path: string | null;
  cwd: string | null;
  gitBranch: string | null;
  aiTitle: string | null;
  firstPrompt: string | null;
  firstTimestamp: number | null;
  lastTimestamp: number | null;
  /** Lineage clues (main transcripts only; null/false from a subagent file). */
  rootUuid?: string | null;
  originSession?: string | null;
  copiedRoot?: boolean;
}

interface ChunkPosition {
  chunkIndex: number;
  firstMessage: number;
  lastMessage: number;
  startOffset: number;
  startsExchange: boolean;
  tokenCount: number;
}

function chunkPosition(row: Record<string, unknown>): ChunkPosition {
  return {
    chunkIndex: Number(row.chunk_index),
    firstMessage: Number(row.first_message),
    lastMessage: Number(row.last_message),
    startOffset: Number(row.start_offset),
    startsExchange: Number(row.starts_exchange) === 1,
    tokenCount: Number(row.token_count),
  };
}

/** The character after the path separator: `<folder><sep>` <= a path below the folder < `<folder><this>`. */
const AFTER_SEPARATOR = String.fromCharCode(sep.charCodeAt(0) + 1);

/** The statements a sync runs, prepared once per writer. */
function prepareStatements(db: DatabaseSync) {
  return {
    getFile: db.prepare("SELECT * FROM files WHERE path = ?"),
    // A folder's paths as one string and its sizes and mtimes as two JSON arrays: a row object per file cost twice
    // the time and three times the memory at 100,000 files, and numbers made strings in JS to compare cost more than
    // the rest. A range of the primary key: the other folders are not read.
    fileStamps: db.prepare(
      `SELECT group_concat(path, char(0)) AS paths, json_group_array(size) AS sizes,
              json_group_array(mtime_ms) AS mtimes FROM files
       WHERE path >= ? AND path < ?`,
    ),
    putFile: db.prepare(
      `INSERT INTO files(path, session_id, kind, size, mtime_ms, offset, head, messages) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET session_id = excluded.session_id, kind = excluded.kind, size = excluded.size,
       mtime_ms = excluded.mtime_ms, offset = excluded.offset, head = excluded.head, messages = excluded.messages
       RETURNING id`,
    ),
    chunksBackwards: db.prepare(
      `SELECT chunk_index, first_message, last_message, start_offset, starts_exchange, token_count FROM chunks
       WHERE file_id = ? ORDER BY chunk_index DESC`,
    ),
    // One rowid at a time: `rowid IN (subquery)` makes FTS5 scan its whole table (quadratic over a build).
    chunkIdsFrom: db.prepare("SELECT id FROM chunks WHERE file_id = ? AND chunk_index >= ?"),
    deleteFts: db.prepare("DELETE FROM chunks_fts WHERE rowid = ?"),

    deleteChunks: db.prepare("DELETE FROM chunks WHERE file_id = ? AND chunk_index >= ?"),
    insertChunk: db.prepare(
      `INSERT INTO chunks(session_id, chunk_index, first_message, last_message, text, token_count, has_code, languages,
       memory_type, file_id, start_offset, starts_exchange, last_uuid, replies, own_replies)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertFts: db.prepare("INSERT INTO chunks_fts(rowid, tokens) VALUES (?, ?)"),
    ensureSession: db.prepare(
      "INSERT INTO sessions(id, project, path, tags, memory_markers) VALUES (?, ?, ?, '[]', '[]') ON CONFLICT(id) DO NOTHING",
    ),
    resetSession: db.prepare(
      `UPDATE sessions SET cwd = NULL, git_branch = NULL, created_at = NULL, updated_at = NULL, ai_title = NULL,
       first_prompt = NULL, root_uuid = NULL, origin_session = NULL, copied_root = 0 WHERE id = ?`,
    ),
    updateSession: db.prepare(
      `UPDATE sessions SET project = ?, path = coalesce(?, path), cwd = coalesce(cwd, ?), git_branch = coalesce(?, git_branch),
       ai_title = coalesce(?, ai_title), first_prompt = coalesce(first_prompt, ?),
       created_at = min(coalesce(created_at, ?), coalesce(?, created_at)),
       updated_at = max(coalesce(updated_at, ?), coalesce(?, updated_at)),
       root_uuid = coalesce(root_uuid, ?), origin_session = coalesce(origin_session, ?),
       copied_root = max(copied_root, ?) WHERE id = ?`,
    ),
    sessionLanguages: db.prepare(
      "SELECT DISTINCT j.value AS v FROM chunks c, json_each(c.languages) j WHERE c.session_id = ? ORDER BY 1",
    ),
    sessionMarkers: db.prepare(
      "SELECT DISTINCT memory_type AS v FROM chunks WHERE session_id = ? AND memory_type IS NOT NULL ORDER BY 1",
    ),
    sessionReplies: db.prepare(
      "SELECT coalesce(sum(replies), 0) AS replies, coalesce(sum(own_replies), 0) AS own FROM chunks WHERE session_id = ?",
    ),
    mainMessages: db.prepare(
      "SELECT coalesce(sum(messages), 0) AS n FROM files WHERE session_id = ? AND kind = 'main'",
    ),
    finishSession: db.prepare(
      `UPDATE sessions SET message_count = ?, replies = ?, own_replies = ?, tags = ?, memory_markers = ?,
       created_at = coalesce(created_at, ?), updated_at = coalesce(updated_at, ?)
       WHERE id = ?`,
    ),
    setMeta: db.prepare(
      "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),
    readVersion: db.prepare("SELECT value FROM meta WHERE key = 'read_version'"),
    // A stamp no file on disk has (every folder's files then differ from the index's) and a position past any file's
    // end (planFile then reads it from its start, as a shrunk file: its chunks replaced, its session's row reset).
    markForReread: db.prepare(`UPDATE files SET mtime_ms = -1, offset = ${Number.MAX_SAFE_INTEGER}`),
    // Their tokens too: a memory topic stamped with no file's mtime is read again by the sync's memory pass
    // (sync-memory.ts), and a note whose record reads as changed is written again by its mirror (annotations.ts).
    markTopicsForReread: db.prepare("UPDATE memory_topics SET mtime_ms = -1"),
    markNotesForRewrite: db.prepare("UPDATE annotations SET updated_at = -1"),
  };
}

/** The session index's writes for one sync: prepared once, each file's writes in the caller's transaction. */
export class IndexWriter {
  private readonly db: DatabaseSync;
  private readonly statements: ReturnType<typeof prepareStatements>;
  /** Prepared on the first delete that finds chunk_vectors. */
  private deleteVectors: StatementSync | null = null;
  /** Inside withFtsAtEnd: the chunks' FTS rows not written yet, by rowid, in insert order. */
  private pendingFts: Map<number, string | Uint8Array> | null = null;

  constructor(index: SessionIndex) {
    this.db = databaseOf(index);
    this.statements = prepareStatements(this.db);
  }

  /** The rules this index's files were read by (schema.ts READ_VERSION): 0 for an index made before they were kept. */
  readVersion(): number {
    const row = this.statements.readVersion.get() as { value: string } | undefined;
    const version = Number(row?.value ?? 0);
    return Number.isSafeInteger(version) ? version : 0;
  }

  /**
   * In the caller's write transaction: when the files were read by older rules than `version`, marks every one to be
   * read again from its start and records `version`, and returns the version found; else null. The marks are rows,
   * so a sync interrupted meanwhile leaves the files it did not reach marked for the next. An index a newer ctx read
   * is left as it is (an older ctx going back and forth with it would read everything again each time).
   */
  markForReread(version: number): number | null {
    const found = this.readVersion();
    if (found >= version) return null;
    this.statements.markForReread.run();
    this.statements.markTopicsForReread.run();
    this.statements.markNotesForRewrite.run();
    this.statements.setMeta.run("read_version", String(version));
    // Every chunk is written again: the VACUUM after the sync that ends it packs the tables (./maintenance.ts).
    this.statements.setMeta.run(VACUUM_PENDING, "1");
    return found;
  }

  /** The dictionary chunk text is packed with now (./text-dictionary.ts), or null while the index has none. */
  textDictionary(fresh = false): TextDictionary | null {
    return textDictionaryOf(this.db, fresh);
  }

  /** In the write transaction, after its chunks: makes the text dictionary once the index holds enough text. */
  ensureTextDictionary(): TextDictionary | null {
    return ensureTextDictionary(this.db);
  }

  /**
   * Runs `write` (inside the caller's transaction) with the FTS rows of the chunks it inserts held back and written
   * together at its end. FTS5 flushes its pending terms to a new segment at every statement savepoint, and a chunk's
   * INSERT opens one (its counts trigger), as does the session's UPDATE: written between them, each chunk's terms
   * were a segment of their own, merged again later. Nothing in `write` may read chunks_fts. If it throws, the held
   * rows are dropped with the transaction the caller rolls back.
   */
  withFtsAtEnd<T>(write: () => T): T {
    if (this.pendingFts !== null) return write();
    const pending = new Map<number, string | Uint8Array>();
    this.pendingFts = pending;
    try {
      const result = write();
      for (const [rowid, tokens] of pending) this.statements.insertFts.run(rowid, tokens);
      return result;
    } finally {
      this.pendingFts = null;
    }
  }

  getFile(path: string): StoredFile | null {
    const row = this.statements.getFile.get(path) as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    return {
      id: Number(row.id),
      path,
      sessionId: String(row.session_id),
      kind: row.kind === "subagent" ? "subagent" : "main",
      size: Number(row.size ?? 0),
      mtimeMs: Number(row.mtime_ms ?? 0),
      offset: Number(row.offset ?? 0),
      head: String(row.head ?? ""),
      messages: Number(row.messages ?? 0),
    };
  }

  /**
   * Every indexed file below `folder` (a project folder), in one query, in the index's path order. A sync compares a
   * folder's files on disk with them a folder at a time (./sync-work.ts: it never holds every file's stamp): whole
   * (sameStamps), and by path (stampsByPath) only when they differ. A query per path cost 1 ms per 1,000 files, paid
   * on every `ctx index` of a large history.
   */
  fileStamps(folder: string): FolderStamps {
    const row = this.statements.fileStamps.get(`${folder}${sep}`, `${folder}${AFTER_SEPARATOR}`) as
      | { paths: string | null; sizes: string; mtimes: string }
      | undefined;
    if (row === undefined || row.paths === null) return { paths: "", sizes: [], mtimes: [] };
    return { paths: row.paths, sizes: JSON.parse(row.sizes) as number[], mtimes: JSON.parse(row.mtimes) as number[] };
  }

  /** Adds or updates the file's row; returns its id (the file's chunks are written with it). */
  putFile(file: FileRecord): number {
    const row = this.statements.putFile.get(
      file.path,
      file.sessionId,
      file.kind,
      file.size,
      file.mtimeMs,
      file.offset,
      file.head,
      file.messages,
    ) as { id: number };
    return Number(row.id);
  }

  /**
   * Where to re-read a grown file: its last chunk whose start no later line can change. That chunk opens an
   * exchange (a user prompt or summary, where the chunker groups from), the chunk before it does not reach
   * into its first message, and the chunk before it was closed for being full (at least `fullTokens`), not
   * because the next exchange did not fit (a next exchange that grows can change that). Null: from the start.
   */
  restartPoint(fileId: number, fullTokens: number): RestartPoint | null {
    let later: ChunkPosition | null = null;
    for (const row of this.statements.chunksBackwards.iterate(fileId) as Iterable<Record<string, unknown>>) {
      const chunk = chunkPosition(row);
      if (later?.startsExchange && chunk.lastMessage < later.firstMessage && chunk.tokenCount >= fullTokens) {
        return { chunkIndex: later.chunkIndex, firstMessage: later.firstMessage, startOffset: later.startOffset };
      }
      later = chunk;
    }
    return null;
  }

  /** Deletes the file's chunks from `fromChunkIndex` on; returns how many were deleted. */
  deleteChunks(fileId: number, fromChunkIndex = 0): number {
    const ids = this.statements.chunkIdsFrom.all(fileId, fromChunkIndex) as { id: number }[];
    if (ids.length === 0) return 0;
    for (const { id } of ids) {
      // A row held back by withFtsAtEnd is not in chunks_fts yet: it is only forgotten.
      if (this.pendingFts?.delete(Number(id)) !== true) this.statements.deleteFts.run(id);
    }
    // chunk_vectors may appear at any time (the embedder creates it): looked up on every delete.
    if (hasTable(this.db, "chunk_vectors")) {
      this.deleteVectors ??= this.db.prepare(
        "DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE file_id = ? AND chunk_index >= ?)",
      );
      this.deleteVectors.run(fileId, fromChunkIndex);
    }
    return Number(this.statements.deleteChunks.run(fileId, fromChunkIndex).changes);
  }

  /**
   * `fileId`: its file's id (putFile's). `startsExchange`: the chunk's first message is a user prompt or a summary (not
   * an assistant reply).
   * `tokens`: tokenizeForSearch(chunk.text), and `packed`: packChunkText(chunk.text, the index's dictionary), computed
   * by the caller outside its transaction when it can. Tokens may come as UTF-8 bytes: FTS5 reads a BLOB's bytes as the text.
   */
  insertChunk(
    chunk: Omit<IndexedChunk, "text"> & { text?: string },
    fileId: number,
    startOffset: number,
    startsExchange: boolean,
    tokens: string | Uint8Array = tokenizeForSearch(chunk.text ?? ""),
    lastUuid: string | null = null,
    packed = packChunkText(chunk.text ?? "", textDictionaryOf(this.db)),
    counts: { replies: number; ownReplies: number } = { replies: 0, ownReplies: 0 },
  ): void {
    const result = this.statements.insertChunk.run(
      chunk.sessionId,
      chunk.chunkIndex,
      chunk.firstMessage,
      chunk.lastMessage,
      packed,
      chunk.tokenCount,
      chunk.hasCode ? 1 : 0,
      JSON.stringify(chunk.languages),
      chunk.memoryType,
      fileId,
      startOffset,
      startsExchange ? 1 : 0,
      packUuid(lastUuid),
      counts.replies,
      counts.ownReplies,
    );
    if (this.pendingFts === null) this.statements.insertFts.run(result.lastInsertRowid, tokens);
    else this.pendingFts.set(Number(result.lastInsertRowid), tokens);
  }

  ensureSession(id: string, project: string, path: string): void {
    this.statements.ensureSession.run(id, project, path);
  }

  /** Forgets what a main transcript said about its session (it is being re-read from the start). */
  resetSession(id: string): void {
    this.statements.resetSession.run(id);
  }

  updateSession(update: SessionUpdate): void {
    this.statements.updateSession.run(
      update.project,
      update.path,
      update.cwd,
      update.gitBranch,
      update.aiTitle,
      update.firstPrompt,
      update.firstTimestamp,
      update.firstTimestamp,
      update.lastTimestamp,
      update.lastTimestamp,
      update.rootUuid ?? null,
      update.originSession ?? null,
      update.copiedRoot === true ? 1 : 0,
      update.id,
    );
  }

  /** Recomputes what is derived from all of a session's chunks and files: tags, markers, message count. */
  finishSession(id: string, fallbackTime: number): void {
    const languages = (this.statements.sessionLanguages.all(id) as Array<{ v: string }>).map((row) => row.v);
    const markers = (this.statements.sessionMarkers.all(id) as Array<{ v: string }>).map((row) => row.v as MemoryType);
    const count = Number((this.statements.mainMessages.get(id) as { n: number }).n);
    const replies = this.statements.sessionReplies.get(id) as { replies: number; own: number };
    this.statements.finishSession.run(
      count,
      Number(replies.replies),
      Number(replies.own),
      JSON.stringify(sessionTags(languages, markers)),
      JSON.stringify(markers),
      fallbackTime,
      fallbackTime,
      id,
    );
  }

  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }
}

/**
 * A session's tags: the code languages its chunks contain (e.g. `typescript`) and its memory markers in
 * kebab case (`pattern`, `working-solution`, `waiting`); `SearchFilters.tags` keeps sessions holding all given tags.
 */
export function sessionTags(languages: readonly string[], markers: readonly MemoryType[]): string[] {
  const tags = new Set(languages.map((language) => language.toLowerCase()));
  for (const marker of markers) tags.add(marker.toLowerCase().replaceAll("_", "-"));
  return [...tags].sort();
}
