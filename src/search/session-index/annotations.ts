// The session library's mirror in the index (the truth is store/library/library-state.ts): the annotations table, for
// filtering and showing, and each note as one chunk of its session (of no file), so a note's words are the
// session's words in the same BM25 ranking, with the same statistics, as its transcript's. Refilled by every sync
// (a dropped or rebuilt index gets it all back) and written by each library change.
import type { AnnotationRecord } from "../../core/library/annotation-schema.ts";
import { tokenizeForSearch } from "../../core/search/tokens.ts";
import { packChunkText } from "./chunk-text.ts";
import { databaseOf } from "./database.ts";
import { parseStringArray } from "./rows.ts";
import { hasTable } from "./schema.ts";
import type { SessionIndex } from "./session-index.ts";
import { createSharedOutboxWriter } from "./team-outbox.ts";

/** A note chunk's index: before the transcript's chunks (0 on). */
export const NOTE_CHUNK_INDEX = -1;

export interface MirrorSummary {
  /** Sessions whose mirror was written (added or changed). */
  written: number;
  removed: number;
}

interface MirrorRow {
  session_id: string;
  updated_at: number;
  note_chunk: number | null;
}

/**
 * Makes the mirror match `entries` (every annotated session, by id), in one transaction: a session whose record
 * changed (its updatedAt), whose note chunk could not be written before (its session was not indexed yet) or that
 * is no longer annotated is rewritten; the rest is left alone, so a sync with nothing new costs one small read.
 */
export function mirrorAnnotations(
  index: SessionIndex,
  entries: Readonly<Record<string, AnnotationRecord>>,
): MirrorSummary {
  const db = databaseOf(index);
  const summary: MirrorSummary = { written: 0, removed: 0 };
  const sessionExists = db.prepare("SELECT 1 FROM sessions WHERE id = ?");
  const rows = db.prepare("SELECT session_id, updated_at, note_chunk FROM annotations").all() as unknown as MirrorRow[];
  const mirrored = new Map(rows.map((row) => [row.session_id, row]));
  const stale = Object.entries(entries).filter(([id, record]) => {
    const row = mirrored.get(id);
    if (row === undefined || Number(row.updated_at) !== record.updatedAt) return true;
    return record.note !== null && row.note_chunk === null && sessionExists.get(id) !== undefined;
  });
  const gone = rows.filter((row) => entries[row.session_id] === undefined);
  if (stale.length === 0 && gone.length === 0) return summary;
  index.writeTransaction(() => {
    const writer = mirrorWriter(index);
    for (const [id, record] of stale) {
      writer.put(id, record);
      summary.written += 1;
    }
    for (const row of gone) {
      writer.remove(row.session_id);
      summary.removed += 1;
    }
  });
  return summary;
}

/**
 * The team outbox's source for a session whose row alone changed (its tags or note): no file's chunks have it, so
 * the push sends the session's row and nothing else (src/team/push-read.ts).
 */
export const LIBRARY_OUTBOX_SOURCE = "ctx:library";

/**
 * One session's mirror after a library change (null: its annotation was removed), in one transaction; with the
 * shared checkouts' roots (`ctx team share`), a session of one of them is queued for the team push in the same
 * transaction, so its tags and note reach the server with the next push.
 */
export function mirrorAnnotation(
  index: SessionIndex,
  sessionId: string,
  record: AnnotationRecord | null,
  teamRoots: readonly string[] = [],
): { queuedForTeam: boolean } {
  return index.writeTransaction(() => {
    const writer = mirrorWriter(index);
    if (record === null) writer.remove(sessionId);
    else writer.put(sessionId, record);
    const queued =
      teamRoots.length > 0 && createSharedOutboxWriter(index, teamRoots)(sessionId, LIBRARY_OUTBOX_SOURCE, 0);
    return { queuedForTeam: queued };
  });
}

/** Writes inside the caller's transaction. */
function mirrorWriter(index: SessionIndex) {
  const db = databaseOf(index);
  const noteChunkOf = db.prepare("SELECT note_chunk FROM annotations WHERE session_id = ?");
  const deleteFts = db.prepare("DELETE FROM chunks_fts WHERE rowid = ?");
  const deleteChunk = db.prepare("DELETE FROM chunks WHERE id = ?");
  const deleteRow = db.prepare("DELETE FROM annotations WHERE session_id = ?");
  const sessionExists = db.prepare("SELECT 1 FROM sessions WHERE id = ?");
  const upsert = db.prepare(
    `INSERT INTO annotations(session_id, starred, labels, note, updated_at, note_chunk) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET starred = excluded.starred, labels = excluded.labels, note = excluded.note,
     updated_at = excluded.updated_at, note_chunk = excluded.note_chunk`,
  );
  const insertChunk = db.prepare(
    `INSERT INTO chunks(session_id, chunk_index, first_message, last_message, text, token_count, has_code, languages,
     memory_type, file_id, start_offset, starts_exchange, last_uuid) VALUES (?, ?, -1, -1, ?, ?, 0, '[]', NULL, NULL, 0, 0, NULL)`,
  );
  const insertFts = db.prepare("INSERT INTO chunks_fts(rowid, tokens) VALUES (?, ?)");
  const dropNoteChunk = (sessionId: string) => {
    const chunk = (noteChunkOf.get(sessionId) as { note_chunk: number | null } | undefined)?.note_chunk;
    if (chunk == null) return;
    deleteFts.run(chunk);
    // A vector the embedder made for the old note (chunk_vectors appears when an embedder first runs).
    if (hasTable(db, "chunk_vectors")) db.prepare("DELETE FROM chunk_vectors WHERE chunk_id = ?").run(chunk);
    deleteChunk.run(chunk);
  };
  return {
    put(sessionId: string, record: AnnotationRecord) {
      dropNoteChunk(sessionId);
      let noteChunk: number | null = null;
      // chunks.session_id references sessions: a session not indexed yet gets its note chunk from a later sync.
      if (record.note !== null && sessionExists.get(sessionId) !== undefined) {
        const tokens = tokenizeForSearch(record.note);
        const count = tokens === "" ? 0 : tokens.split(" ").length;
        // No file (file_id NULL): no transcript's re-chunking touches it.
        const result = insertChunk.run(sessionId, NOTE_CHUNK_INDEX, packChunkText(record.note), count);
        noteChunk = Number(result.lastInsertRowid);
        insertFts.run(noteChunk, tokens);
      }
      upsert.run(
        sessionId,
        record.starred ? 1 : 0,
        JSON.stringify(record.labels),
        record.note,
        record.updatedAt,
        noteChunk,
      );
    },
    remove(sessionId: string) {
      dropNoteChunk(sessionId);
      deleteRow.run(sessionId);
    },
  };
}

/** The mirrored labels with how many sessions carry each (completion, `ctx session list`): most used first. */
export function labelCounts(index: SessionIndex): Array<{ label: string; sessions: number }> {
  const rows = databaseOf(index)
    .prepare(
      `SELECT j.value AS label, count(*) AS n FROM annotations a, json_each(a.labels) j GROUP BY j.value
       ORDER BY n DESC, label`,
    )
    .all() as Array<{ label: string; n: number }>;
  return rows.map((row) => ({ label: String(row.label), sessions: Number(row.n) }));
}

/** The mirrored annotation rows (tests and diagnostics): by session id. */
export function readMirroredLabels(index: SessionIndex, sessionId: string): string[] | null {
  const row = databaseOf(index).prepare("SELECT labels FROM annotations WHERE session_id = ?").get(sessionId) as
    | { labels: string }
    | undefined;
  return row === undefined ? null : parseStringArray(row.labels);
}
