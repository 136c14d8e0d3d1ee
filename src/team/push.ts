// Pushes the team outbox (src/search/session-index/team-outbox.ts) to the team server, in batches, each one
// transaction: the projects, then the sessions (the chunk and transcript policies check the session's author), then
// the chunks (one INSERT … SELECT FROM unnest(…); COPY FROM is refused under row-level security), then the redacted,
// compressed transcripts. Every write is an upsert keyed like the local index (team, session, source, chunk_index),
// and chunks past a file's last local chunk are deleted, so pushing the same work twice changes nothing and a push cut
// off anywhere (a crash, a dropped connection) loses nothing: a batch is acknowledged in the outbox only after its
// COMMIT, and an item queued again meanwhile (a new `seq`) stays for the next push.
// What leaves the machine: the local index's rows (redacted at ingest) and the main transcript, redacted here with the
// project's redactor (core/redact, config `redaction.allowlist`) before it is compressed.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import * as zlib from "node:zlib";
import { storableJson } from "../core/text/postgres-text.ts";
import { CtxError } from "../errors.ts";
import { unpackChunkText } from "../search/session-index/chunk-text.ts";
import { readLineage } from "../search/session-index/lineage.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import {
  acknowledgeOutbox,
  dropOutboxSessions,
  type OutboxDepth,
  type OutboxItem,
  outboxDepth,
  readOutbox,
  releaseSetAside,
  setAsideSessions,
} from "../search/session-index/team-outbox.ts";
import { redactTranscriptBytes } from "../store/snapshots/redact-thread.ts";
import { type SharedProject, sharedProjectOf } from "../store/team/team-state.ts";
import { knownPasswords, type TeamClient, withTeamClient } from "./connect.ts";
import { requireMembership } from "./inspect.ts";
import { readSchemaVersion, requireCurrentSchema } from "./migrate.ts";
import { setAsideReason, writeSettingAside } from "./set-aside.ts";
import { storableClient } from "./storable-client.ts";
import { chunkTermsParameters } from "./term-stats.ts";

export interface PushOptions {
  url: string;
  team: string;
  connectTimeoutMs: number;
  /** `team.lockTimeoutMs` and `team.statementTimeoutMs` (connect.ts's defaults when absent). */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
  env: NodeJS.ProcessEnv;
  /** The session index (`<CTX_HOME>/index.db`). */
  dbPath: string;
  /** The shared projects (src/store/team/team-state.ts): an item of a session outside them is dropped, not pushed. */
  shared: readonly SharedProject[];
  /** `team.maxTranscriptMegabytes`: a larger redacted transcript is not uploaded; the session is not forkable. */
  maxTranscriptMegabytes: number;
  /** `redaction.allowlist`. */
  allowlist?: readonly string[];
  /** Sessions read from the outbox per batch (default 200); a batch also ends at ~BATCH_CHUNKS chunks. */
  batchSessions?: number;
  onProgress?: (progress: PushProgress) => void;
  /** Called after a batch's COMMIT, before it is acknowledged in the outbox (tests cut the connection here). */
  afterCommit?: (batch: number) => void | Promise<void>;
  signal?: AbortSignal;
  /** Release the sessions set aside before pushing (`ctx team push --retry-set-aside`). */
  retrySetAside?: boolean;
}

export interface PushProgress {
  sessions: number;
  chunks: number;
  messages: number;
  /** Sessions still queued when this batch was read. */
  pendingSessions: number;
  /** Sessions set aside so far (src/team/set-aside.ts): done with, not sent. */
  setAside: number;
}

export interface PushSummary {
  sessions: number;
  chunks: number;
  /** Messages of the sessions pushed (their message_count). */
  messages: number;
  transcripts: number;
  /** Sessions pushed without a transcript because it was over team.maxTranscriptMegabytes. */
  notForkable: number;
  /** Items dropped because their project is no longer shared (or their session left the index). */
  dropped: number;
  /** Sessions left out because the server holds them under another member's name (a fork fetched them here). */
  othersSessions: number;
  /** Sessions the server refused for a reason of their own (src/team/set-aside.ts): held back, listed by status. */
  setAside: number;
  batches: number;
  durationMs: number;
}

const BATCH_CHUNKS = 4_000;
/**
 * Chunks per INSERT: each statement also counts its chunks' terms into the team's statistics (migration 5's
 * trigger, ~0.3 ms of server CPU a chunk), so a statement's time under team.statementTimeoutMs stays bounded.
 */
const CHUNKS_PER_STATEMENT = 1_000;
const DEFAULT_BATCH_SESSIONS = 200;

/** zstd when this Node has it (≥ 22.15 / 23.8), else gzip: the schema's `codec` column says which. */
export const TRANSCRIPT_CODEC: "zstd" | "gzip" = typeof zlib.zstdCompressSync === "function" ? "zstd" : "gzip";

export function compressTranscript(raw: Uint8Array): Buffer {
  return TRANSCRIPT_CODEC === "zstd"
    ? zlib.zstdCompressSync(raw, { params: { [zlib.constants.ZSTD_c_compressionLevel]: 6 } })
    : zlib.gzipSync(raw, { level: 6 });
}

export function decompressTranscript(codec: string, data: Uint8Array): Buffer {
  if (codec === "zstd") return zlib.zstdDecompressSync(data);
  if (codec === "gzip") return zlib.gunzipSync(data);
  throw new CtxError("TEAM_REFUSED", `a transcript on the server has an unknown codec ${JSON.stringify(codec)}`);
}

interface SessionWork {
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

interface Prepared {
  work: SessionWork[];
  taken: OutboxItem[];
  dropped: string[];
  /** Sessions queued when the batch was read. */
  pending: number;
}

interface ChunkRow {
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

interface TranscriptRow {
  codec: string;
  rawBytes: number;
  sha256: string;
  data: Buffer;
}

/** Sends everything queued now; returns what was pushed. Throws (password-free) when the server cannot be used. */
/** A summary with nothing pushed yet (what pushes add to). */
export function emptyPushSummary(): PushSummary {
  return {
    sessions: 0,
    chunks: 0,
    messages: 0,
    transcripts: 0,
    notForkable: 0,
    dropped: 0,
    othersSessions: 0,
    setAside: 0,
    batches: 0,
    durationMs: 0,
  };
}

export async function pushPending(options: PushOptions): Promise<PushSummary> {
  const started = Date.now();
  const summary = emptyPushSummary();
  const index = openSessionIndex(options.dbPath);
  try {
    if (options.retrySetAside === true) releaseSetAside(index.db);
    if (outboxDepth(index.db).items === 0) return summary;
    await withTeamClient(
      options.url,
      {
        connectTimeoutMs: options.connectTimeoutMs,
        ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
        ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
        env: options.env,
      },
      async (connection) => {
        // Every value pushed is made storable on the way out (NUL, lone surrogates): core/text/postgres-text.ts.
        const client = storableClient(connection);
        // A server older than this ctx has no column for the chunks' terms (schema 5): say so, rather than fail on it.
        requireCurrentSchema(await readSchemaVersion(client));
        const member = await requireMembership(client, options.team);
        const projectIds = new Map<string, string>();
        // The next batch is read (chunks unpacked, the transcript redacted and compressed) while the server writes
        // this one: the two are the push's two costs, on two processes.
        const prepare = async (inFlight: ReadonlySet<string>): Promise<Prepared | null> => {
          if (options.signal?.aborted === true) return null;
          const limit = options.batchSessions ?? DEFAULT_BATCH_SESSIONS;
          const items = readOutbox(index.db, limit + inFlight.size).filter((i) => !inFlight.has(i.sessionId));
          if (items.length === 0) return null;
          const pending = outboxDepth(index.db).sessions;
          const read = await readWork(index.db, items, options);
          if (read.dropped.length > 0) {
            dropOutboxSessions(index.db, read.dropped);
            summary.dropped += read.dropped.length;
          }
          return { ...read, pending };
        };
        let next: Promise<Prepared | null> = prepare(new Set());
        for (;;) {
          const current = await next;
          if (current === null) break;
          const { work, taken, pending } = current;
          // A batch the server refuses for one session's data is written again in halves; that session is set
          // aside with its reason and the rest goes on (src/team/set-aside.ts).
          const refused = new Map<string, string>();
          const writePart = async (part: readonly SessionWork[]): Promise<string[]> => {
            const known = new Set(projectIds.keys());
            try {
              return await writeBatch(client, member.id, part, projectIds);
            } catch (error) {
              // Rolled back: a project row added in it is not on the server.
              for (const key of [...projectIds.keys()]) if (!known.has(key)) projectIds.delete(key);
              throw error;
            }
          };
          const writing =
            work.length > 0
              ? writeSettingAside(work, writePart, (session, error) =>
                  refused.set(session.id, setAsideReason(error, knownPasswords(options.url, options.env))),
                )
              : Promise.resolve([]);
          next = prepare(new Set(taken.map((i) => i.sessionId)));
          // Settled either way below; a failed write ends the push before `next` is looked at.
          next.catch(() => {});
          const others = new Set(await writing);
          if (work.length > 0) {
            summary.batches += 1;
            await options.afterCommit?.(summary.batches);
          }
          acknowledgeOutbox(
            index.db,
            taken.filter((i) => !refused.has(i.sessionId)),
          );
          setAsideSessions(
            index.db,
            [...refused].map(([sessionId, reason]) => ({
              sessionId,
              reason,
              seq: Math.max(...taken.filter((i) => i.sessionId === sessionId).map((i) => i.seq)),
            })),
          );
          summary.setAside += refused.size;
          summary.othersSessions += others.size;
          for (const session of work) {
            if (others.has(session.id) || refused.has(session.id)) continue;
            summary.sessions += 1;
            summary.chunks += session.chunks.length;
            summary.messages += session.messageCount;
            if (session.transcript?.row) summary.transcripts += 1;
            if (session.transcript?.forkable === false) summary.notForkable += 1;
          }
          options.onProgress?.({
            sessions: summary.sessions,
            chunks: summary.chunks,
            messages: summary.messages,
            pendingSessions: pending,
            setAside: summary.setAside,
          });
        }
      },
    );
  } finally {
    index.close();
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

/** Reads the local rows for the outbox items, stopping at ~BATCH_CHUNKS chunks (whole sessions). */
async function readWork(
  db: DatabaseSync,
  items: readonly OutboxItem[],
  options: PushOptions,
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
  options: PushOptions,
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

/**
 * Writes one batch in one transaction. A session the server holds under another member's name (this machine has
 * it because `ctx fork` fetched it) is theirs: row-level security would refuse the whole batch for it, so it is
 * left out and its ids returned (the caller drops them from the outbox).
 */
async function writeBatch(
  client: TeamClient,
  teamId: string,
  batch: readonly SessionWork[],
  projectIds: Map<string, string>,
): Promise<string[]> {
  await client.query("BEGIN");
  try {
    const { rows: theirs } = await client.query<{ id: string }>(
      "SELECT id FROM ctx_team.sessions WHERE team_id = $1::bigint AND id = ANY($2::text[]) AND author <> current_user",
      [teamId, batch.map((s) => s.id)],
    );
    const others = new Set(theirs.map((row) => row.id));
    const work = batch.filter((s) => !others.has(s.id));
    for (const session of work) {
      const key = `${session.project.remoteUrl}\n${session.project.repoPath}`;
      if (!projectIds.has(key)) projectIds.set(key, await upsertProject(client, teamId, session.project));
    }
    const projectOf = (s: SessionWork) => projectIds.get(`${s.project.remoteUrl}\n${s.project.repoPath}`) as string;
    await client.query(
      `INSERT INTO ctx_team.sessions AS s (team_id, id, project_id, title, branch, started_at, ended_at, message_count,
         lineage, memory_markers, forkable, pushed_at)
       SELECT $1::bigint, u.id, u.project_id, u.title, u.branch,
              CASE WHEN u.started IS NULL THEN NULL ELSE pg_catalog.to_timestamp(u.started / 1000.0::float8) END,
              CASE WHEN u.ended IS NULL THEN NULL ELSE pg_catalog.to_timestamp(u.ended / 1000.0::float8) END,
              u.messages, u.lineage::pg_catalog.jsonb, pg_catalog.string_to_array(u.markers, E'\\x1f'::text),
              coalesce(u.forkable, false), pg_catalog.now()
       FROM ROWS FROM (
         pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::bigint[]), pg_catalog.unnest($4::text[]),
         pg_catalog.unnest($5::text[]), pg_catalog.unnest($6::float8[]), pg_catalog.unnest($7::float8[]),
         pg_catalog.unnest($8::integer[]), pg_catalog.unnest($9::text[]), pg_catalog.unnest($10::text[]),
         pg_catalog.unnest($11::boolean[])
       )
            AS u(id, project_id, title, branch, started, ended, messages, lineage, markers, forkable)
       ON CONFLICT (team_id, id) DO UPDATE SET project_id = excluded.project_id, title = excluded.title,
         branch = excluded.branch, started_at = excluded.started_at, ended_at = excluded.ended_at,
         message_count = excluded.message_count, lineage = excluded.lineage, memory_markers = excluded.memory_markers,
         forkable = CASE WHEN $12::text[] @> ARRAY[excluded.id] THEN excluded.forkable ELSE s.forkable END,
         pushed_at = pg_catalog.now()`,
      [
        teamId,
        work.map((s) => s.id),
        work.map(projectOf),
        work.map((s) => s.title),
        work.map((s) => s.branch),
        work.map((s) => s.startedAt),
        work.map((s) => s.endedAt),
        work.map((s) => s.messageCount),
        work.map((s) => storableJson(s.lineage)),
        work.map((s) => joinList(s.memoryMarkers)),
        work.map((s) => s.transcript?.forkable ?? null),
        work.filter((s) => s.transcript !== null).map((s) => s.id),
      ],
    );
    const chunks = work.flatMap((s) => s.chunks.map((c) => ({ session: s.id, ...c })));
    for (let at = 0; at < chunks.length; at += CHUNKS_PER_STATEMENT) {
      const part = chunks.slice(at, at + CHUNKS_PER_STATEMENT);
      // A chunk the server already holds unchanged (a re-push: `ctx index --full`, a batch committed but not yet
      // acknowledged) is left alone: it is filtered out before the INSERT, whose generated `english` tsvector and
      // GIN entries are the server's main cost per row, and the upsert's WHERE skips one that raced in meanwhile.
      await client.query(
        `WITH u AS (
           SELECT $1::bigint AS team_id, u.session_id, u.source, u.chunk_index, u.start_offset, u.first_message,
                  u.last_message, u.text, u.token_count, u.has_code,
                  pg_catalog.string_to_array(u.languages, E'\\x1f'::text) AS languages, u.memory_type,
                  u.starts_exchange, u.last_uuid, pg_catalog.string_to_array(u.terms, ' '::text) AS terms,
                  u.term_tokens
           FROM ROWS FROM (
             pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::integer[]),
             pg_catalog.unnest($5::bigint[]), pg_catalog.unnest($6::integer[]), pg_catalog.unnest($7::integer[]),
             pg_catalog.unnest($8::text[]), pg_catalog.unnest($9::integer[]), pg_catalog.unnest($10::boolean[]),
             pg_catalog.unnest($11::text[]), pg_catalog.unnest($12::text[]), pg_catalog.unnest($13::boolean[]),
             pg_catalog.unnest($14::text[]), pg_catalog.unnest($15::text[]), pg_catalog.unnest($16::integer[])
           )
                AS u(session_id, source, chunk_index, start_offset, first_message, last_message, text, token_count,
                     has_code, languages, memory_type, starts_exchange, last_uuid, terms, term_tokens))
         INSERT INTO ctx_team.chunks AS c (team_id, session_id, source, chunk_index, start_offset, first_message,
           last_message, text, token_count, has_code, languages, memory_type, starts_exchange, last_uuid, terms,
           term_tokens)
         SELECT u.team_id, u.session_id, u.source, u.chunk_index, u.start_offset, u.first_message, u.last_message,
                u.text, u.token_count, u.has_code, u.languages, u.memory_type, u.starts_exchange, u.last_uuid, u.terms,
                u.term_tokens
         FROM u
         -- A scalar subquery, not NOT EXISTS: it stays one primary-key probe per row, where an anti-join could be
         -- planned as a scan of the whole table.
         WHERE NOT coalesce((
           SELECT (o.start_offset, o.first_message, o.last_message, o.text, o.token_count, o.has_code, o.languages,
                   o.memory_type, o.starts_exchange, o.last_uuid)
                  IS NOT DISTINCT FROM (u.start_offset, u.first_message, u.last_message, u.text, u.token_count,
                   u.has_code, u.languages, u.memory_type, u.starts_exchange, u.last_uuid)
                  -- One pushed before the server kept term statistics is sent again, with its terms.
                  AND o.terms IS NOT NULL
           FROM ctx_team.chunks o
           WHERE o.team_id = u.team_id AND o.session_id = u.session_id AND o.source = u.source
             AND o.chunk_index = u.chunk_index), false)
         ON CONFLICT (team_id, session_id, source, chunk_index) DO UPDATE SET start_offset = excluded.start_offset,
           first_message = excluded.first_message, last_message = excluded.last_message, text = excluded.text,
           token_count = excluded.token_count, has_code = excluded.has_code, languages = excluded.languages,
           memory_type = excluded.memory_type, starts_exchange = excluded.starts_exchange, last_uuid = excluded.last_uuid,
           terms = excluded.terms, term_tokens = excluded.term_tokens
         WHERE c.terms IS NULL OR (c.start_offset, c.first_message, c.last_message, c.text, c.token_count, c.has_code, c.languages,
                c.memory_type, c.starts_exchange, c.last_uuid)
           IS DISTINCT FROM (excluded.start_offset, excluded.first_message, excluded.last_message, excluded.text,
                excluded.token_count, excluded.has_code, excluded.languages, excluded.memory_type,
                excluded.starts_exchange, excluded.last_uuid)`,
        [
          teamId,
          part.map((c) => c.session),
          part.map((c) => c.source),
          part.map((c) => c.chunkIndex),
          part.map((c) => c.startOffset),
          part.map((c) => c.firstMessage),
          part.map((c) => c.lastMessage),
          part.map((c) => c.text),
          part.map((c) => c.tokenCount),
          part.map((c) => c.hasCode),
          part.map((c) => joinList(c.languages)),
          part.map((c) => c.memoryType),
          part.map((c) => c.startsExchange),
          part.map((c) => c.lastUuid),
          ...chunkTermsParameters(part.map((chunk) => chunk.text)),
        ],
      );
    }
    // A file re-read from the start with fewer chunks than before: the server's extra ones go.
    const lasts = work.flatMap((s) => [...s.lastIndex].map(([source, last]) => ({ session: s.id, source, last })));
    if (lasts.length > 0) {
      await client.query(
        `DELETE FROM ctx_team.chunks c
           USING ROWS FROM (
             pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::integer[])
           ) AS u(session_id, source, last)
         WHERE c.team_id = $1::bigint AND c.session_id = u.session_id AND c.source = u.source AND c.chunk_index > u.last`,
        [teamId, lasts.map((l) => l.session), lasts.map((l) => l.source), lasts.map((l) => l.last)],
      );
    }
    for (const session of work) {
      const transcript = session.transcript;
      if (transcript === null) continue;
      if (transcript.row === null) {
        await client.query("DELETE FROM ctx_team.transcripts WHERE team_id = $1::bigint AND session_id = $2::text", [
          teamId,
          session.id,
        ]);
        continue;
      }
      await client.query(
        `INSERT INTO ctx_team.transcripts (team_id, session_id, codec, raw_bytes, sha256, data)
         VALUES ($1::bigint, $2::text, $3::text, $4::bigint, $5::text, $6::pg_catalog.bytea)
         ON CONFLICT (team_id, session_id) DO UPDATE SET codec = excluded.codec, raw_bytes = excluded.raw_bytes,
           sha256 = excluded.sha256, data = excluded.data
         WHERE ctx_team.transcripts.sha256 IS DISTINCT FROM excluded.sha256`,
        [teamId, session.id, transcript.row.codec, transcript.row.rawBytes, transcript.row.sha256, transcript.row.data],
      );
    }
    await client.query("COMMIT");
    return [...others];
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/**
 * This member's own row for the project on the server, added when they have none yet. Project rows are per author
 * (migration 4): a row another member added (and may change) is never looked up, so nobody else decides where forks
 * of this member's sessions land.
 */
export async function upsertProject(
  client: TeamClient,
  teamId: string,
  project: { remoteUrl: string; repoPath: string },
): Promise<string> {
  await client.query(
    `INSERT INTO ctx_team.projects (team_id, remote_url, repo_path, added_by)
     VALUES ($1::bigint, $2::text, $3::text, current_user)
     ON CONFLICT (team_id, added_by, remote_url, repo_path) DO NOTHING`,
    [teamId, project.remoteUrl, project.repoPath],
  );
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM ctx_team.projects
      WHERE team_id = $1::bigint AND added_by = current_user AND remote_url = $2::text AND repo_path = $3::text`,
    [teamId, project.remoteUrl, project.repoPath],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new CtxError("TEAM_REFUSED", "the server did not keep the project row");
  return id;
}

/**
 * A text[] sent as one text per row, split on the server by string_to_array (a plain function call per row, where
 * unnest cannot take an array of arrays). The separator cannot occur in a language or marker name.
 */
const LIST_SEPARATOR = "\u001f";
function joinList(values: readonly string[]): string {
  return values.filter((v) => v !== "" && !v.includes(LIST_SEPARATOR)).join(LIST_SEPARATOR);
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

/** The outbox's depth for `ctx team status` (no index yet, or one `ctx index` must rebuild first: empty). */
export function readOutboxDepth(dbPath: string): OutboxDepth {
  const empty = { sessions: 0, items: 0, oldestAt: null };
  if (!existsSync(dbPath)) return empty;
  let index: ReturnType<typeof openSessionIndex>;
  try {
    index = openSessionIndex(dbPath, { readonly: true });
  } catch {
    return empty;
  }
  try {
    return outboxDepth(index.db);
  } finally {
    index.close();
  }
}
