// Incremental sync of the session index with the transcripts on disk: find what changed (./sync-work.ts, a project
// folder at a time), bring changed files up to date, several per transaction (src/search/sync/sync-file.ts). An
// abort (Ctrl-C) takes effect between files (what was prepared is written first), so the index is always consistent
// and the next run resumes where this one stopped.
// Then the auto-memory topic files, the same way (src/search/sync/sync-memory.ts).

import { readLibraryForMirror } from "../../store/library/library-state.ts";
import { type MirrorSummary, mirrorAnnotations } from "../session-index/annotations.ts";
import { refreshDuplicates } from "../session-index/duplicates.ts";
import { vacuumAfterWholeSync } from "../session-index/maintenance.ts";
import { READ_VERSION, VACUUM_PENDING } from "../session-index/schema.ts";
import { openSessionIndex, type SessionIndex } from "../session-index/session-index.ts";
import { createSharedOutboxWriter } from "../session-index/team-outbox.ts";
import { IndexWriter } from "../session-index/writer.ts";
import { type ContentReader, createContentReader } from "./content-reader.ts";
import { type DiscoveredFile, discoverSession } from "./discover.ts";
import { applyPreparedFile, type FileContent, type FilePlan, type PreparedFile, planFile } from "./sync-file.ts";
import { type MemorySyncSummary, syncMemoryTopics } from "./sync-memory.ts";
import { findSyncWork } from "./sync-work.ts";

export interface SyncProgress {
  /** Files brought up to date so far, of `total` that needed work (more if files changed while the sync ran). */
  done: number;
  total: number;
  sessionId: string;
  /** From the bytes read so far; null until there is a rate to go by. */
  etaMs: number | null;
}

export interface SyncSummary {
  sessionsTotal: number;
  filesScanned: number;
  filesIngested: number;
  filesSkippedUnchanged: number;
  messages: number;
  chunks: number;
  skippedLines: number;
  unknownEntries: number;
  durationMs: number;
  interrupted: boolean;
  /** The auto-memory topic files (`projects/*\/memory/*.md`) found, (re)indexed and dropped. */
  memoryTopics: MemorySyncSummary;
  /** The format of an index made by another version of ctx, dropped and built again by this sync; else null. */
  rebuiltFromFormat: number | null;
  /**
   * The reading rules (session-index/schema.ts READ_VERSION) the index's files were read by when this sync found them
   * older and marked every file to be read again; else null (the marked files may take more than one sync).
   */
  rereadFromVersion: number | null;
  /**
   * The index rewritten in key order after the sync that wrote it whole (session-index/maintenance.ts
   * vacuumAfterWholeSync); false for every other sync.
   */
  vacuumed: boolean;
  /** The session library's mirror brought up to date (SyncOptions.libraryEnv); absent when it was not read. */
  annotations?: MirrorSummary;
}

export interface SyncOptions {
  claudeDir: string;
  dbPath: string;
  onProgress?: (progress: SyncProgress) => void;
  signal?: AbortSignal;
  /** Re-read every file from the start. */
  full?: boolean;
  /** Called when one file cannot be read (permissions, I/O); the sync goes on with the others. */
  onFileError?: (path: string, error: unknown) => void;
  now?: () => number;
  /** Strings never redacted in memory topics (config `redaction.allowlist`). */
  allowlist?: readonly string[];
  /** Files written per transaction (default BATCH_FILES). */
  batchFiles?: number;
  /** Only this main transcript (and its subagents' files): SessionEnd's queued indexing of the ended session. */
  onlyTranscript?: string;
  /** Read files in a worker thread while this one writes (default: when the work is large, useThread). */
  thread?: boolean;
  /** Called before any file is read when the index was made by another version of ctx and is being rebuilt. */
  onRebuild?: (fromFormat: number) => void;
  /** Called before any file is read when the index's files were read by older rules and are all marked to be read again. */
  onReread?: (fromVersion: number) => void;
  /**
   * The shared projects' checkout folders (`ctx team share`): what is ingested for a session whose cwd is inside
   * one is queued in the team outbox in the same transaction (src/search/session-index/team-outbox.ts).
   */
  teamShare?: { roots: readonly string[]; onQueued?: (sessionId: string) => void };
  /**
   * The environment whose CTX_HOME holds the session library (store/library/): every sync refills the index's mirror
   * of it (a dropped or rebuilt index gets its stars, labels and notes back). Absent: the mirror is left as it is.
   */
  libraryEnv?: NodeJS.ProcessEnv;
}

/**
 * Files written per transaction: FTS5 flushes its pending terms to a new segment at every commit, so one commit per
 * file made thousands of tiny segments to merge. The write lock is held for one batch (well under a second).
 */
const BATCH_FILES = 32;
const BATCH_BYTES = 2 * 1024 * 1024;
/**
 * Files the worker may read ahead of the writes (bounded in bytes too: each is held whole until written): a whole
 * batch, so the worker goes on reading while a batch is written (6 files left it idle for most of each commit).
 */
const READ_AHEAD_FILES = BATCH_FILES;
const READ_AHEAD_BYTES = 4 * 1024 * 1024;
/** A sync with less work than this reads in this thread: starting a worker costs more than it saves. */
const THREAD_MIN_FILES = 16;
const THREAD_MIN_BYTES = 4 * 1024 * 1024;

/** Whether a sync reads its files in a worker thread (SyncOptions.thread). */
export function useThread(option: boolean | undefined, files: number, bytes: number): boolean {
  return option ?? (files >= THREAD_MIN_FILES && bytes >= THREAD_MIN_BYTES);
}

export async function syncIndex(options: SyncOptions): Promise<SyncSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const full = options.full === true;
  // A path that is not a session's transcript is refused before the index is opened (or made).
  const session =
    options.onlyTranscript === undefined ? null : discoverSession(options.claudeDir, options.onlyTranscript);
  const index = openSessionIndex(options.dbPath);
  const summary: SyncSummary = {
    sessionsTotal: 0,
    filesScanned: 0,
    filesIngested: 0,
    filesSkippedUnchanged: 0,
    messages: 0,
    chunks: 0,
    skippedLines: 0,
    unknownEntries: 0,
    durationMs: 0,
    interrupted: false,
    memoryTopics: { scanned: 0, indexed: 0, removed: 0 },
    rebuiltFromFormat: index.rebuiltFrom,
    rereadFromVersion: null,
    vacuumed: false,
  };
  let reader: ContentReader | null = null;
  try {
    const writer = new IndexWriter(index);
    const queueForTeam = teamQueue(index, options.teamShare);
    // Files read by older rules are all read again, by this sync and the next (not by SessionEnd's one session's).
    if (session === null && writer.readVersion() < READ_VERSION) {
      summary.rereadFromVersion = index.writeTransaction(() => writer.markForReread(READ_VERSION));
      if (summary.rereadFromVersion !== null) options.onReread?.(summary.rereadFromVersion);
    }
    // --full writes every chunk again: the VACUUM after the sync that finishes it packs the tables.
    if (full && session === null) writer.setMeta(VACUUM_PENDING, "1");
    const work = await findSyncWork(writer, options.claudeDir, { full, ...(session === null ? {} : { session }) });
    const totalBytes = work.bytes;
    const threaded = useThread(options.thread, work.files, totalBytes);
    const contents: ContentReader = createContentReader({ thread: threaded });
    reader = contents;
    if (index.rebuiltFrom !== null) options.onRebuild?.(index.rebuiltFrom);
    summary.filesScanned = work.scanned;
    summary.filesSkippedUnchanged = work.scanned - work.files;
    let bytesDone = 0;
    let done = 0;
    let batch: PreparedFile[] = [];
    let batchBytes = 0;
    // One synchronous transaction per batch, never open across an await: another sync in this process (two
    // fork-detect calls of one `ctx serve`) would wait for the lock in SQLite, blocking the event loop this one
    // needs to finish.
    const flush = () => {
      if (batch.length === 0) return;
      // The batch's FTS rows are written at its end, together: one segment of pending terms, not one per chunk.
      index.writeTransaction(() =>
        writer.withFtsAtEnd(() => {
          // The dictionary as the index has it now: a file packed with another is packed again (applyPreparedFile).
          writer.textDictionary(true);
          const written = new Set<string>();
          for (const prepared of batch) {
            const result = applyPreparedFile(writer, prepared);
            if (!result.raced) {
              summary.filesIngested += 1;
              written.add(prepared.file.sessionId);
              queueForTeam?.(prepared);
            }
            summary.messages += result.messages;
            summary.chunks += result.chunks;
            summary.skippedLines += result.skippedLines;
            summary.unknownEntries += result.unknownEntries;
          }
          // A written session's family is judged again: a copy that went on, or a parent that grew (duplicates.ts).
          refreshDuplicates(index, written);
          // Made once the index holds 32 KiB of chunk text; the files planned from then on are packed with it.
          if (writer.textDictionary() === null) writer.ensureTextDictionary();
        }),
      );
      batch = [];
      batchBytes = 0;
    };
    const fileError = (file: DiscoveredFile, error: unknown) => {
      if (options.onFileError === undefined || isDatabaseError(error)) throw error;
      options.onFileError(file.path, error);
    };
    const fileDone = (file: DiscoveredFile) => {
      done += 1;
      bytesDone += file.size;
      const elapsed = now() - started;
      const bytesLeft = Math.max(0, totalBytes - bytesDone);
      const etaMs = bytesDone > 0 && elapsed > 0 ? Math.round((elapsed / bytesDone) * bytesLeft) : null;
      options.onProgress?.({ done, total: Math.max(work.files, done), sessionId: file.sessionId, etaMs });
    };
    // Files being read (by the worker, while earlier ones are written here), in order.
    const reading: Array<{ plan: FilePlan; content: Promise<FileContent> }> = [];
    let readingBytes = 0;
    const takeOldest = async () => {
      const next = reading.shift();
      if (next === undefined) return;
      readingBytes -= next.plan.file.size;
      try {
        batch.push({ ...next.plan, content: await next.content });
        batchBytes += next.plan.file.size;
      } catch (error) {
        fileError(next.plan.file, error);
      }
      if (batch.length >= (options.batchFiles ?? BATCH_FILES) || batchBytes >= BATCH_BYTES) flush();
      fileDone(next.plan.file);
    };
    /** Starts reading one file (after what is being read, written in order); false once the sync is aborted. */
    const startFile = async (file: DiscoveredFile): Promise<boolean> => {
      if (options.signal?.aborted === true) {
        summary.interrupted = true;
        return false;
      }
      let plan: FilePlan | null = null;
      try {
        plan = await planFile(writer, file, { full });
      } catch (error) {
        fileError(file, error);
      }
      if (plan === null) {
        fileDone(file);
        return true;
      }
      const content = contents.read(plan.job);
      content.catch(() => {}); // awaited in order by takeOldest; this keeps an early failure from going unhandled
      reading.push({ plan, content });
      readingBytes += file.size;
      // A file prepared twice in one batch (main and subagent share a session, not a path) cannot happen:
      // paths are unique, so batching changes nothing but the number of commits.
      while (reading.length > (contents.threaded ? READ_AHEAD_FILES : 0) || readingBytes > READ_AHEAD_BYTES) {
        await takeOldest();
      }
      return true;
    };
    // A folder's files are let go once read; reading and batches run on across folders.
    folders: for await (const folder of work.folders()) {
      for (const file of folder) if (!(await startFile(file))) break folders;
    }
    // What was being read is written, also after an abort.
    while (reading.length > 0) await takeOldest();
    flush();
    if (!summary.interrupted) {
      summary.memoryTopics = await syncMemoryTopics(index, options.claudeDir, {
        full,
        // SessionEnd's one session: its own project's topics, not every project folder's.
        ...(work.sessionProject === null ? {} : { project: work.sessionProject }),
        ...(options.allowlist === undefined ? {} : { allowlist: options.allowlist }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    }
    if (options.libraryEnv !== undefined) {
      // A damaged library file reads as null: the mirror keeps what it had, and the person's next library command
      // reports and recovers it (a sync runs in the background, where nobody would read the error).
      const entries = await readLibraryForMirror(options.libraryEnv);
      if (entries !== null) summary.annotations = mirrorAnnotations(index, entries);
    }
    writer.setMeta("last_sync_at", String(now()));
    summary.sessionsTotal = index.sessionCount();
    // A sync that wrote the whole index and finished it: its pages packed once (session-index/maintenance.ts).
    if (!summary.interrupted && session === null) summary.vacuumed = vacuumAfterWholeSync(index);
  } finally {
    await reader?.close();
    index.close();
  }
  summary.durationMs = now() - started;
  return summary;
}

/** Queues a written file in the team outbox when its session belongs to a shared checkout (null: none shared). */
function teamQueue(index: SessionIndex, share: SyncOptions["teamShare"]): ((prepared: PreparedFile) => void) | null {
  if (share === undefined || share.roots.length === 0) return null;
  const queue = createSharedOutboxWriter(index, share.roots);
  return (prepared) => {
    const sessionId = prepared.file.sessionId;
    if (queue(sessionId, prepared.file.path, prepared.replaced ? 0 : prepared.job.firstChunkIndex)) {
      share.onQueued?.(sessionId);
    }
  };
}

function isDatabaseError(error: unknown): boolean {
  return typeof (error as { errcode?: unknown } | null)?.errcode === "number";
}
