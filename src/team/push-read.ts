// Reads a batch of the push (src/team/push.ts) from this machine: the outbox items' rows in the session index and
// each main transcript, redacted with the project's redactor and compressed (store/files/codecs.ts, the codec the
// server's `codec` column records).
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { readLineage } from "../search/session-index/lineage.ts";
import type { SessionIndex } from "../search/session-index/session-index.ts";
import {
  lastChunkIndex,
  readSourceChunks,
  readStoredSessions,
  type StoredChunk,
} from "../search/session-index/stored-rows.ts";
import type { OutboxItem } from "../search/session-index/team-outbox.ts";
import { compressTranscript, TRANSCRIPT_CODEC } from "../store/files/codecs.ts";
import { redactTranscriptBytes } from "../store/snapshots/redact-thread.ts";
import { type SharedProject, sharedProjectOf } from "../store/team/team-state.ts";

/** What reading a batch needs of the push's options (src/team/push.ts PushOptions). */
export interface PushReadOptions {
  /** The shared projects (src/store/team/team-state.ts): an item of a session outside them is dropped, not pushed. */
  shared: readonly SharedProject[];
  /** `team.maxTranscriptMegabytes`: a larger redacted transcript is not uploaded; the session is not forkable. */
  maxTranscriptMegabytes: number;
  /** `redaction.allowlist`. */
  allowlist?: readonly string[];
}

const BATCH_CHUNKS = 4_000;

export interface SessionWork {
  id: string;
  project: SharedProject;
  title: string;
  branch: string | null;
  startedAt: number | null;
  endedAt: number | null;
  messageCount: number;
  lineage: unknown;
  memoryMarkers: string[];
  /** The author's tags and note on the session (the session library; pushed only for the author's own sessions). */
  labels: string[];
  note: string | null;
  /** null: the main transcript was not in this batch (its stored transcript and forkable flag stay). */
  transcript: { forkable: boolean; row: TranscriptRow | null } | null;
  chunks: ChunkRow[];
  /** Per server source: the last local chunk index (chunks after it are deleted on the server). */
  lastIndex: Map<string, number>;
}

/** A chunk as the server keys it: `source` is "" for the main transcript, else the subagent file's name. */
export type ChunkRow = Omit<StoredChunk, "source"> & { source: string };

export interface TranscriptRow {
  codec: string;
  rawBytes: number;
  sha256: string;
  data: Uint8Array;
}

/** Reads the local rows for the outbox items, stopping at ~BATCH_CHUNKS chunks (whole sessions). */
export async function readWork(
  index: SessionIndex,
  items: readonly OutboxItem[],
  options: PushReadOptions,
): Promise<{ work: SessionWork[]; taken: OutboxItem[]; dropped: string[] }> {
  const bySession = new Map<string, OutboxItem[]>();
  for (const item of items) bySession.set(item.sessionId, [...(bySession.get(item.sessionId) ?? []), item]);
  const work: SessionWork[] = [];
  const taken: OutboxItem[] = [];
  const dropped: string[] = [];
  let chunksInBatch = 0;
  const ids = [...bySession.keys()];
  const lineage = readLineage(index, ids);
  for (const id of ids) {
    if (work.length > 0 && chunksInBatch >= BATCH_CHUNKS) break;
    const sessionItems = bySession.get(id) ?? [];
    // Read as its turn comes (after the transcripts before it), as its chunks are.
    const row = readStoredSessions(index, [id]).get(id);
    const project = sharedProjectOf(options.shared, row?.cwd ?? null);
    if (row === undefined || project === null) {
      dropped.push(id);
      continue;
    }
    const mainPath = row.path;
    const session: SessionWork = {
      id,
      project,
      title: row.title,
      branch: row.gitBranch,
      startedAt: row.createdAt,
      endedAt: row.updatedAt,
      messageCount: row.messageCount,
      lineage: lineage.get(id) ?? {},
      memoryMarkers: row.memoryMarkers,
      labels: row.labels,
      note: row.note,
      transcript: null,
      chunks: [],
      lastIndex: new Map(),
    };
    for (const item of sessionItems) {
      const source = item.source === mainPath ? "" : basename(item.source).replace(/\.jsonl$/, "");
      const last = lastChunkIndex(index, item.source);
      // No chunks here (yet): nothing to send and nothing to delete (an index being rebuilt must not empty the server).
      if (last === null) continue;
      session.lastIndex.set(source, last);
      for (const chunk of readSourceChunks(index, item.source, item.fromChunk))
        session.chunks.push({ ...chunk, source });
    }
    if (mainPath !== null && sessionItems.some((item) => item.source === mainPath)) {
      session.transcript = await readTranscript(mainPath, options);
    }
    chunksInBatch += session.chunks.length;
    work.push(session);
    taken.push(...sessionItems);
  }
  for (const id of dropped) taken.push(...(bySession.get(id) ?? []));
  return { work, taken, dropped };
}

/** The main transcript, redacted and compressed; over the limit (or gone): not forkable, no row. */
async function readTranscript(
  path: string,
  options: PushReadOptions,
): Promise<{ forkable: boolean; row: TranscriptRow | null }> {
  const limit = options.maxTranscriptMegabytes * 1024 * 1024;
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return { forkable: false, row: null };
  }
  // Redaction only shortens a line by little: a file far over the limit is not read at all.
  if (size > limit * 2) return { forkable: false, row: null };
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch {
    return { forkable: false, row: null };
  }
  const redacted = redactTranscriptBytes(raw, options.allowlist ?? []);
  if (redacted.byteLength > limit) return { forkable: false, row: null };
  return {
    forkable: true,
    row: {
      codec: TRANSCRIPT_CODEC,
      rawBytes: redacted.byteLength,
      sha256: createHash("sha256").update(redacted).digest("hex"),
      data: compressTranscript(redacted),
    },
  };
}
