// Pushes the team outbox (src/search/session-index/team-outbox.ts) to the team server, in batches, each one
// transaction: the projects, then the sessions (the chunk and transcript policies check the session's author), then
// the chunks (one INSERT … SELECT FROM unnest(…); COPY FROM is refused under row-level security), then the redacted,
// compressed transcripts. Every write is an upsert keyed like the local index (team, session, source, chunk_index),
// and chunks past a file's last local chunk are deleted, so pushing the same work twice changes nothing and a push cut
// off anywhere (a crash, a dropped connection) loses nothing: a batch is acknowledged in the outbox only after its
// COMMIT, and an item queued again meanwhile (a new `seq`) stays for the next push.
// What leaves the machine: the local index's rows (redacted at ingest) and the main transcript, redacted here with the
// project's redactor (core/redact, config `redaction.allowlist`) before it is compressed.
// This module runs the batches, reading the next while the server writes this one: ./push-read.ts reads one from this
// machine, ./push-write.ts writes it to the server.
import { openSessionIndex } from "../search/session-index/session-index.ts";
import {
  acknowledgeOutbox,
  dropOutboxSessions,
  type OutboxItem,
  outboxDepth,
  readOutbox,
  releaseSetAside,
  setAsideSessions,
} from "../search/session-index/team-outbox.ts";
import { knownPasswords, withTeamClient } from "./connect.ts";
import { requireMembership } from "./inspect.ts";
import { readSchemaVersion, requireCurrentSchema } from "./migrate.ts";
import { type PushReadOptions, readWork, type SessionWork } from "./push-read.ts";
import { writeBatch } from "./push-write.ts";
import { setAsideReason, writeSettingAside } from "./set-aside.ts";
import { storableClient } from "./storable-client.ts";

export interface PushOptions extends PushReadOptions {
  url: string;
  team: string;
  connectTimeoutMs: number;
  /** `team.lockTimeoutMs` and `team.statementTimeoutMs` (connect.ts's defaults when absent). */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
  env: NodeJS.ProcessEnv;
  /** The session index (`<CTX_HOME>/index.db`). */
  dbPath: string;
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

const DEFAULT_BATCH_SESSIONS = 200;

interface Prepared {
  work: SessionWork[];
  taken: OutboxItem[];
  dropped: string[];
  /** Sessions queued when the batch was read. */
  pending: number;
}

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

/** Sends everything queued now; returns what was pushed. Throws (password-free) when the server cannot be used. */
export async function pushPending(options: PushOptions): Promise<PushSummary> {
  const started = Date.now();
  const summary = emptyPushSummary();
  const index = openSessionIndex(options.dbPath);
  try {
    if (options.retrySetAside === true) releaseSetAside(index);
    if (outboxDepth(index).items === 0) return summary;
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
          const items = readOutbox(index, limit + inFlight.size).filter((i) => !inFlight.has(i.sessionId));
          if (items.length === 0) return null;
          const pending = outboxDepth(index).sessions;
          const read = await readWork(index, items, options);
          if (read.dropped.length > 0) {
            dropOutboxSessions(index, read.dropped);
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
            index,
            taken.filter((i) => !refused.has(i.sessionId)),
          );
          setAsideSessions(
            index,
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
