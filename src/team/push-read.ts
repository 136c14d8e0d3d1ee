// Reads a batch of the push (src/team/push.ts) from this machine: the outbox items' rows in the session index and
// each main transcript, redacted with the project's redactor and compressed (store/files/codecs.ts, the codec the
// server's `codec` column records).
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { unpackChunkText } from "../search/session-index/chunk-text.ts";
import { readLineage } from "../search/session-index/lineage.ts";
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
  /** null: the main transcript was not in this batch (its stored transcript and forkable flag stay). */
  transcript: { forkable: boolean; row: TranscriptRow | null } | null;
  chunks: ChunkRow[];
  /** Per server source: the last local chunk index (chunks after it are deleted on the server). */
  lastIndex: Map<string, number>;
}

export interface ChunkRow {
  source: string;
  chunkIndex: number;
  startOffset: number;
  firstMessage: number;
  lastMessage: number;
  text: string;
  tokenCount: number;
  hasCode: boolean;
  languages: string[];
  memoryType: string | null;
  startsExchange: boolean;
  lastUuid: string | null;
}

export interface TranscriptRow {
  codec: string;
  rawBytes: number;
  sha256: string;
  data: Uint8Array;
}

/** Reads the local rows for the outbox items, stopping at ~BATCH_CHUNKS chunks (whole sessions). */
export async function readWork(
  db: DatabaseSync,
  items: readonly OutboxItem[],
  options: PushReadOptions,
): Promise<{ work: SessionWork[]; taken: OutboxItem[]; dropped: string[] }> {
  const bySession = new Map<string, OutboxItem[]>();
  for (const item of items) bySession.set(item.sessionId, [...(bySession.get(item.sessionId) ?? []), item]);
  const sessionRow = db.prepare(
    "SELECT id, cwd, path, git_branch, created_at, updated_at, message_count, title, memory_markers FROM sessions WHERE id = ?",
  );
  const chunkRows = db.prepare(
    `SELECT chunk_index, first_message, last_message, text, token_count, has_code, languages, memory_type, start_offset,
            starts_exchange, last_uuid FROM chunks WHERE source = ? AND chunk_index >= ? ORDER BY chunk_index`,
  );
  const lastChunk = db.prepare("SELECT max(chunk_index) AS n FROM chunks WHERE source = ?");
  const work: SessionWork[] = [];
  const taken: OutboxItem[] = [];
  const dropped: string[] = [];
  let chunksInBatch = 0;
  const ids = [...bySession.keys()];
  const lineage = readLineage(db, ids);
  for (const id of ids) {
    if (work.length > 0 && chunksInBatch >= BATCH_CHUNKS) break;
    const sessionItems = bySession.get(id) ?? [];
    const row = sessionRow.get(id) as Record<string, unknown> | undefined;
    const cwd = typeof row?.cwd === "string" ? row.cwd : null;
    const project = sharedProjectOf(options.shared, cwd);
    if (row === undefined || project === null) {
      dropped.push(id);
      continue;
    }
    const mainPath = typeof row.path === "string" ? row.path : null;
    const session: SessionWork = {
      id,
      project,
      title: String(row.title ?? ""),
      branch: typeof row.git_branch === "string" ? row.git_branch : null,
      startedAt: row.created_at === null ? null : Number(row.created_at),
      endedAt: row.updated_at === null ? null : Number(row.updated_at),
      messageCount: Number(row.message_count ?? 0),
      lineage: lineage.get(id) ?? {},
      memoryMarkers: parseJsonArray(row.memory_markers),
      transcript: null,
      chunks: [],
      lastIndex: new Map(),
    };
    for (const item of sessionItems) {
      const source = item.source === mainPath ? "" : basename(item.source).replace(/\.jsonl$/, "");
      const last = (lastChunk.get(item.source) as { n: number | null }).n;
      // No chunks here (yet): nothing to send and nothing to delete (an index being rebuilt must not empty the server).
      if (last === null) continue;
      session.lastIndex.set(source, Number(last));
      for (const chunk of chunkRows.iterate(item.source, item.fromChunk) as Iterable<Record<string, unknown>>) {
        session.chunks.push({
          source,
          chunkIndex: Number(chunk.chunk_index),
          startOffset: Number(chunk.start_offset),
          firstMessage: Number(chunk.first_message),
          lastMessage: Number(chunk.last_message),
          text: unpackChunkText(chunk.text),
          tokenCount: Number(chunk.token_count ?? 0),
          hasCode: Number(chunk.has_code) === 1,
          languages: parseJsonArray(chunk.languages),
          memoryType: typeof chunk.memory_type === "string" ? chunk.memory_type : null,
          startsExchange: Number(chunk.starts_exchange) === 1,
          lastUuid: typeof chunk.last_uuid === "string" ? chunk.last_uuid : null,
        });
      }
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

function parseJsonArray(value: unknown): string[] {
  if (typeof value !== "string" || value === "") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
