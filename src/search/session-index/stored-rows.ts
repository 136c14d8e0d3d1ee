// The index's sessions and chunks as stored, whole: for what sends or shows a session as it is (the team push, a
// session's preview or export), where search reads only what ranks. Nothing is defaulted that the row does not hold
// (a session without times has null ones), and a chunk's text is unpacked (./chunk-text.ts).
import type { DatabaseSync } from "node:sqlite";
import type { IndexedChunk } from "../../core/search/model.ts";
import { databaseOf } from "./database.ts";
import { parseStringArray } from "./rows.ts";
import type { SessionIndex } from "./session-index.ts";
import { readStoredText } from "./text-dictionary.ts";
import { readUuid } from "./uuid-value.ts";

export interface StoredSession {
  id: string;
  cwd: string | null;
  /** Its main transcript; null when the index has none for it. */
  path: string | null;
  gitBranch: string | null;
  /** Its first and last message's times (epoch ms). */
  createdAt: number | null;
  updatedAt: number | null;
  messageCount: number;
  title: string;
  /** Its chunks' memory markers as stored (core/search/model.ts MemoryType, unchecked). */
  memoryMarkers: string[];
  /** The person's labels and note on it (the session library's mirror, ./annotations.ts): none when unannotated. */
  labels: string[];
  note: string | null;
}

/** A chunk as stored (core/search/model.ts IndexedChunk, whole): where it sits in its file, and its marker unchecked. */
export interface StoredChunk extends Omit<IndexedChunk, "memoryType"> {
  /** The transcript file it came from: the session's main transcript or one of its subagents'. */
  source: string;
  /** The byte offset in `source` of its first message's line. */
  startOffset: number;
  /** As stored (core/search/model.ts MemoryType, unchecked). */
  memoryType: string | null;
  /** Whether its first message opens an exchange. */
  startsExchange: boolean;
  /** The uuid of its last line (`claude --resume … --resume-session-at` forks there). */
  lastUuid: string | null;
}

/** Of `chunks c JOIN files f ON f.id = c.file_id`: a note's chunk (no file) is the person's, not a transcript's. */
const CHUNK_COLUMNS = `c.session_id, f.path AS source, c.chunk_index, c.first_message, c.last_message, c.text, c.token_count,
  c.has_code, c.languages, c.memory_type, c.start_offset, c.starts_exchange, c.last_uuid`;

/** These sessions' rows, by id; an id the index does not hold is left out. */
export function readStoredSessions(index: SessionIndex, ids: readonly string[]): Map<string, StoredSession> {
  const select = databaseOf(index).prepare(
    `SELECT s.id, s.cwd, s.path, s.git_branch, s.created_at, s.updated_at, s.message_count, s.title, s.memory_markers,
       a.labels, a.note FROM sessions s LEFT JOIN annotations a ON a.session_id = s.id WHERE s.id = ?`,
  );
  const sessions = new Map<string, StoredSession>();
  for (const id of ids) {
    const row = select.get(id) as Record<string, unknown> | undefined;
    if (row === undefined) continue;
    sessions.set(id, {
      id,
      cwd: typeof row.cwd === "string" ? row.cwd : null,
      path: typeof row.path === "string" ? row.path : null,
      gitBranch: typeof row.git_branch === "string" ? row.git_branch : null,
      createdAt: row.created_at === null ? null : Number(row.created_at),
      updatedAt: row.updated_at === null ? null : Number(row.updated_at),
      messageCount: Number(row.message_count ?? 0),
      title: String(row.title ?? ""),
      memoryMarkers: parseStringArray(row.memory_markers),
      labels: parseStringArray(row.labels),
      note: typeof row.note === "string" ? row.note : null,
    });
  }
  return sessions;
}

/** The chunks of one transcript file from `fromChunk` on, in order. */
export function readSourceChunks(index: SessionIndex, source: string, fromChunk = 0): StoredChunk[] {
  const db = databaseOf(index);
  const rows = db
    .prepare(
      `SELECT ${CHUNK_COLUMNS} FROM files f JOIN chunks c ON c.file_id = f.id
       WHERE f.path = ? AND c.chunk_index >= ? ORDER BY c.chunk_index`,
    )
    .all(source, fromChunk) as Array<Record<string, unknown>>;
  return rows.map((row) => chunkFromRow(db, row));
}

/** The index of a transcript file's last chunk; null when it has none (yet). */
export function lastChunkIndex(index: SessionIndex, source: string): number | null {
  const row = databaseOf(index)
    .prepare("SELECT max(c.chunk_index) AS n FROM files f JOIN chunks c ON c.file_id = f.id WHERE f.path = ?")
    .get(source) as { n: number | null };
  return row.n === null ? null : Number(row.n);
}

/**
 * A session's chunks in order: its main transcript's first, then each subagent file's (by path), each from its first
 * chunk; at most `limit` of them when given. Its note's chunk (./annotations.ts) is the person's, not the transcript's:
 * left out.
 */
export function readSessionChunks(index: SessionIndex, sessionId: string, limit?: number): StoredChunk[] {
  const db = databaseOf(index);
  const rows = db
    .prepare(
      `SELECT ${CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id
       WHERE c.session_id = ?
       ORDER BY f.path IS NOT (SELECT path FROM sessions WHERE id = c.session_id), f.path, c.chunk_index
       LIMIT ?`,
    )
    .all(sessionId, limit === undefined ? -1 : Math.max(0, Math.trunc(limit))) as Array<Record<string, unknown>>;
  return rows.map((row) => chunkFromRow(db, row));
}

function chunkFromRow(db: DatabaseSync, row: Record<string, unknown>): StoredChunk {
  return {
    sessionId: String(row.session_id),
    source: String(row.source),
    chunkIndex: Number(row.chunk_index),
    startOffset: Number(row.start_offset),
    firstMessage: Number(row.first_message),
    lastMessage: Number(row.last_message),
    text: readStoredText(db, row.text),
    tokenCount: Number(row.token_count ?? 0),
    hasCode: Number(row.has_code) === 1,
    languages: parseStringArray(row.languages),
    memoryType: typeof row.memory_type === "string" ? row.memory_type : null,
    startsExchange: Number(row.starts_exchange) === 1,
    lastUuid: readUuid(row.last_uuid),
  };
}
