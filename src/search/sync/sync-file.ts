// Brings one transcript file's rows in the session index up to date (the unit of syncIndex's work; several files
// share one transaction). A grown file is re-chunked from its last chunk: that chunk is deleted and the file re-read
// from the line its first message starts on, moving back until a chunk whose start later lines cannot change
// (see IndexWriter.restartPoint); with the previous chunk's text for the overlap, the chunks come out exactly
// as in a full read (a test checks this, growing real transcripts block by block).
// A shrunk or replaced file (its first bytes changed) loses its rows and is read again from the start.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { buildChunks, CHUNK_TARGET_TOKENS } from "../../core/search/chunker.ts";
import type { IndexedChunk } from "../../core/search/model.ts";
import { tokenizeForSearch } from "../../core/search/tokens.ts";
import { openRegularFile } from "../../store/files/open-regular.ts";
import {
  chunkTextToPack,
  dictionaryIdOf,
  packChunkText,
  packChunkTextBytes,
  sameId,
  type TextDictionary,
  unpackChunkText,
} from "../session-index/chunk-text.ts";
import type { FileStamp, IndexWriter, StoredFile } from "../session-index/writer.ts";
import type { DiscoveredFile } from "./discover.ts";
import { type IndexMessage, readTranscriptFrom, type TranscriptMeta } from "./read-transcript.ts";

/** Bytes hashed to recognise a file that was replaced by another of at least the same length. */
const HEAD_BYTES = 4096;

export interface FileSyncResult {
  /** Messages not seen before (re-read ones are not counted twice). */
  messages: number;
  /** Net chunks added. */
  chunks: number;
  skippedLines: number;
  unknownEntries: number;
  /** Another process synced this file meanwhile: nothing was written. */
  raced: boolean;
}

const NOTHING = { messages: 0, chunks: 0, skippedLines: 0, unknownEntries: 0 };

/** True when the stored position says this file needs no work. */
export function isUnchanged(file: DiscoveredFile, stored: FileStamp | null | undefined): boolean {
  return (
    stored !== null &&
    stored !== undefined &&
    stored.size === file.size &&
    stored.mtimeMs === file.mtimeMs &&
    stored.sessionId === file.sessionId &&
    stored.kind === file.kind
  );
}

/** What the index says about a file before it is read (its stored position, where to re-read from). */
export interface FilePlan {
  file: DiscoveredFile;
  stored: StoredFile | null;
  replaced: boolean;
  /** What reading the file needs (plain data: it may be sent to a worker thread, ./content-reader.ts). */
  job: ContentJob;
}

/** What readFileContent needs: where to start reading and how to number what it finds. */
export interface ContentJob {
  path: string;
  sessionId: string;
  kind: DiscoveredFile["kind"];
  from: number;
  firstOrdinal: number;
  firstChunkIndex: number;
  /** The index's text dictionary when the file was planned: its chunks are packed with it (null: format 1). */
  textDictionary: TextDictionary | null;
}

/** A chunk as it is written: its tokens and stored text computed, its position in the file known. */
export interface ChunkToWrite {
  chunk: Omit<IndexedChunk, "text">;
  /** tokenizeForSearch of the text, or those tokens as UTF-8 bytes (from the worker thread). */
  tokens: string | Uint8Array;
  /**
   * What chunks.text stores (src/search/session-index/chunk-text.ts), or, read with `pack: false` (the worker
   * thread), chunkTextToPack's value: the main thread deflates it (finishPacking), as it has CPU to spare.
   */
  packed: string | Uint8Array;
  /** False while `packed` is chunkTextToPack's value. */
  deflated: boolean;
  startOffset: number;
  startsExchange: boolean;
  lastUuid: string | null;
  /** Main-chain assistant replies first seen in this chunk, and those not copied from another session. */
  replies: number;
  ownReplies: number;
}

/** A file read, chunked, tokenized and packed: everything but the writes, and no database. */
export interface FileContent {
  endOffset: number;
  /** Messages read (from `job.firstOrdinal` on). */
  messages: number;
  skippedLines: number;
  unknownEntries: number;
  meta: TranscriptMeta;
  chunks: ChunkToWrite[];
  head: string;
}

export interface PreparedFile extends FilePlan {
  content: FileContent;
}

/** The database half of preparing: null when there is nothing to do (unchanged meanwhile, or deleted). */
export async function planFile(
  writer: IndexWriter,
  file: DiscoveredFile,
  options: { full: boolean },
): Promise<FilePlan | null> {
  const stored = writer.getFile(file.path);
  // Another process may have brought it up to date since this sync listed its work.
  if (!options.full && isUnchanged(file, stored)) return null;
  // Deleted since discovery (Claude Code's cleanup): its rows stay, a fork-detect result says the file is gone. A stat,
  // not an open: the file's bytes are read by readFileContent, maybe in another thread.
  if (statSync(file.path, { throwIfNoEntry: false }) === undefined) return null;
  const replaced =
    options.full ||
    stored === null ||
    stored.sessionId !== file.sessionId ||
    file.size < stored.offset ||
    (await readHead(file.path, headLength(stored.head))) !== stored.head;
  const last = replaced || stored === null ? null : writer.restartPoint(stored.id, CHUNK_TARGET_TOKENS);
  // No chunk to restart from (none yet, or none opens an exchange): the whole file again; it is small or one exchange.
  const job: ContentJob = {
    path: file.path,
    sessionId: file.sessionId,
    kind: file.kind,
    from: last?.startOffset ?? 0,
    firstOrdinal: last?.firstMessage ?? 0,
    firstChunkIndex: last?.chunkIndex ?? 0,
    textDictionary: writer.textDictionary(),
  };
  return { file, stored, replaced, job };
}

/**
 * The file half: read from `job.from`, chunk, tokenize and pack, before any transaction (the write lock is held
 * only for the inserts). Touches no database, so a worker thread can run it.
 */
export async function readFileContent(
  job: ContentJob,
  options: { pack?: boolean; blocking?: boolean } = {},
): Promise<FileContent> {
  const pack = options.pack !== false;
  const increment = await readTranscriptFrom(job.path, job.from, {
    keepHead: HEAD_BYTES,
    blocking: options.blocking === true,
  });
  const headBytes = Math.min(increment.endOffset, HEAD_BYTES);
  const chunks = buildChunks(job.sessionId, increment.messages, {
    firstOrdinal: job.firstOrdinal,
    firstChunkIndex: job.firstChunkIndex,
  });
  // Each message counts in the first chunk holding it (chunks may share one; a restart never splits one).
  let counted = job.firstOrdinal;
  const toWrite = chunks.map(({ text, ...chunk }): ChunkToWrite => {
    const first = increment.messages[chunk.firstMessage - job.firstOrdinal];
    const last = increment.messages[chunk.lastMessage - job.firstOrdinal];
    let replies = 0;
    let ownReplies = 0;
    for (let ordinal = Math.max(counted, chunk.firstMessage); ordinal <= chunk.lastMessage; ordinal++) {
      const message = increment.messages[ordinal - job.firstOrdinal];
      if (message?.role !== "assistant" || message.sidechain) continue;
      replies++;
      if (message.copied !== true) ownReplies++;
    }
    counted = Math.max(counted, chunk.lastMessage + 1);
    return {
      replies,
      ownReplies,
      chunk,
      tokens: tokenizeForSearch(text),
      packed: pack ? packChunkText(text, job.textDictionary) : chunkTextToPack(text),
      deflated: pack,
      startOffset: first?.offset ?? job.from,
      startsExchange: first !== undefined && opensExchange(first, job.kind),
      lastUuid: last?.endUuid ?? last?.uuid ?? null,
    };
  });
  return {
    endOffset: increment.endOffset,
    messages: increment.messages.length,
    skippedLines: increment.skippedLines,
    unknownEntries: increment.unknownEntries,
    meta: increment.meta,
    chunks: toWrite,
    // From the bytes read when the read began at the start (one read of the file, not two); else read again.
    head:
      increment.head !== undefined && increment.head.length >= headBytes
        ? headOf(increment.head.subarray(0, headBytes))
        : await readHead(job.path, headBytes),
  };
}

/** Deflates what readFileContent left to pack (`pack: false`) with the job's dictionary, in place. */
export function finishPacking(content: FileContent, dictionary: TextDictionary | null): FileContent {
  for (const row of content.chunks) {
    if (!row.deflated) {
      row.packed = packChunkTextBytes(row.packed, dictionary);
      row.deflated = true;
    }
  }
  return content;
}

/**
 * Writes a prepared file; the caller holds the write transaction (several files may share one: FTS5 flushes
 * its pending terms once per commit, and once per statement savepoint, so the sync writes a batch's FTS rows at
 * its end: IndexWriter.withFtsAtEnd; batching is most of the indexing speed). Raced = another process
 * synced the file since it was prepared: nothing written.
 */
export function applyPreparedFile(writer: IndexWriter, prepared: PreparedFile): FileSyncResult {
  const { file, stored, replaced, job, content } = prepared;
  if (!sameRecord(writer.getFile(file.path), stored)) return { ...NOTHING, raced: true };
  const totalMessages = job.firstOrdinal + content.messages;
  const previousMessages = replaced ? 0 : (stored?.messages ?? 0);
  const mainPath = file.kind === "main" ? file.path : null;
  writer.ensureSession(file.sessionId, file.project, file.path);
  // The file's row first: its id is what its chunks are written with.
  const fileId = writer.putFile({
    path: file.path,
    sessionId: file.sessionId,
    kind: file.kind,
    size: file.size,
    mtimeMs: file.mtimeMs,
    offset: content.endOffset,
    head: content.head,
    messages: totalMessages,
  });
  const removed = writer.deleteChunks(fileId, job.firstChunkIndex);
  // A replaced file's chunks are all new; a grown file's rebuilt ones are not.
  const removedChunks = replaced ? 0 : removed;
  if (replaced && file.kind === "main") writer.resetSession(file.sessionId);
  const dictionary = writer.textDictionary();
  // Packed with a dictionary the index no longer has (another process rebuilt the tables meanwhile): packed again.
  const stale = job.textDictionary !== null && (dictionary === null || !sameId(dictionary.id, job.textDictionary.id));
  for (const row of content.chunks) {
    // Packed already (finishPacking, outside the transaction); never stored as bytes that are not deflated.
    let packed = row.deflated ? row.packed : packChunkTextBytes(row.packed, job.textDictionary);
    if (stale && dictionaryIdOf(packed) !== null)
      packed = packChunkText(unpackChunkText(packed, job.textDictionary), dictionary);
    writer.insertChunk(row.chunk, fileId, row.startOffset, row.startsExchange, row.tokens, row.lastUuid, packed, {
      replies: row.replies,
      ownReplies: row.ownReplies,
    });
  }
  const meta = content.meta;
  writer.updateSession({
    id: file.sessionId,
    project: file.project,
    path: mainPath,
    cwd: file.kind === "main" ? meta.cwd : null,
    gitBranch: file.kind === "main" ? meta.gitBranch : null,
    aiTitle: file.kind === "main" ? meta.title : null,
    firstPrompt: file.kind === "main" ? meta.firstPrompt : null,
    firstTimestamp: meta.firstTimestamp,
    lastTimestamp: meta.lastTimestamp,
    rootUuid: file.kind === "main" ? meta.rootUuid : null,
    originSession: file.kind === "main" ? meta.originSession : null,
    copiedRoot: file.kind === "main" && meta.copiedRoot,
  });
  writer.finishSession(file.sessionId, file.mtimeMs);
  return {
    messages: Math.max(0, totalMessages - previousMessages),
    chunks: content.chunks.length - removedChunks,
    skippedLines: content.skippedLines,
    unknownEntries: content.unknownEntries,
    raced: false,
  };
}

function sameRecord(a: StoredFile | null, b: StoredFile | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function headLength(head: string): number {
  const length = Number(head.split(":")[0]);
  return Number.isSafeInteger(length) && length >= 0 ? length : 0;
}

/** `<length>:<sha1 of the first length bytes>`; a file shorter than `length` gives a value that cannot match. */
export async function readHead(path: string, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  // Only a regular file, as the reader opens it (a FIFO put in its place would block): else UNSAFE_PATH.
  const handle = await openRegularFile(path, { listed: true });
  if (handle === null) return "missing";
  try {
    read = (await handle.read(buffer, 0, length, 0)).bytesRead;
  } finally {
    await handle.close();
  }
  if (read < length) return `short:${read}`;
  return headOf(buffer);
}

/** readHead's value for bytes already read from the file's start. */
function headOf(bytes: Uint8Array): string {
  return `${bytes.length}:${createHash("sha1").update(bytes).digest("hex")}`;
}

/**
 * Whether the chunker surely starts an exchange at this message (its rule, src/core/search/chunker.ts): any
 * main-chain prompt or summary does; an inline subagent prompt in a main transcript may be part of a main
 * exchange, so it does not count (a restart then begins further back); in a subagent's own file every prompt does.
 */
function opensExchange(message: IndexMessage, kind: DiscoveredFile["kind"]): boolean {
  return message.role !== "assistant" && (!message.sidechain || kind === "subagent");
}
