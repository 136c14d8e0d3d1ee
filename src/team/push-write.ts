// Writes a batch of the push (src/team/push.ts) to the team server in one transaction: idempotent upserts of the
// projects, sessions, chunks and transcripts, keyed like the local index.
import { storableJson } from "../core/text/postgres-text.ts";
import { CtxError } from "../errors.ts";
import type { TeamClient } from "./connect.ts";
import type { SessionWork } from "./push-read.ts";
import { chunkTermsParameters } from "./term-stats.ts";

/**
 * Chunks per INSERT: each statement also counts its chunks' terms into the team's statistics (migration 5's
 * trigger, ~0.3 ms of server CPU a chunk), so a statement's time under team.statementTimeoutMs stays bounded.
 */
const CHUNKS_PER_STATEMENT = 1_000;

/**
 * Writes one batch in one transaction. A session the server holds under another member's name (this machine has
 * it because `ctx fork` fetched it) is theirs: row-level security would refuse the whole batch for it, so it is
 * left out and its ids returned (the caller drops them from the outbox).
 */
export async function writeBatch(
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
         lineage, memory_markers, forkable, pushed_at, labels, note)
       SELECT $1::bigint, u.id, u.project_id, u.title, u.branch,
              CASE WHEN u.started IS NULL THEN NULL ELSE pg_catalog.to_timestamp(u.started / 1000.0::float8) END,
              CASE WHEN u.ended IS NULL THEN NULL ELSE pg_catalog.to_timestamp(u.ended / 1000.0::float8) END,
              u.messages, u.lineage::pg_catalog.jsonb, pg_catalog.string_to_array(u.markers, E'\\x1f'::text),
              coalesce(u.forkable, false), pg_catalog.now(),
              coalesce(pg_catalog.string_to_array(u.labels, E'\\x1f'::text), '{}'::text[]), u.note
       FROM ROWS FROM (
         pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::bigint[]), pg_catalog.unnest($4::text[]),
         pg_catalog.unnest($5::text[]), pg_catalog.unnest($6::float8[]), pg_catalog.unnest($7::float8[]),
         pg_catalog.unnest($8::integer[]), pg_catalog.unnest($9::text[]), pg_catalog.unnest($10::text[]),
         pg_catalog.unnest($11::boolean[]), pg_catalog.unnest($13::text[]), pg_catalog.unnest($14::text[])
       )
            AS u(id, project_id, title, branch, started, ended, messages, lineage, markers, forkable, labels, note)
       ON CONFLICT (team_id, id) DO UPDATE SET project_id = excluded.project_id, title = excluded.title,
         branch = excluded.branch, started_at = excluded.started_at, ended_at = excluded.ended_at,
         message_count = excluded.message_count, lineage = excluded.lineage, memory_markers = excluded.memory_markers,
         forkable = CASE WHEN $12::text[] @> ARRAY[excluded.id] THEN excluded.forkable ELSE s.forkable END,
         pushed_at = pg_catalog.now(), labels = excluded.labels, note = excluded.note`,
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
        work.map((s) => joinList(s.labels)),
        work.map((s) => s.note),
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
                  u.term_tokens, pg_catalog.string_to_array(u.term_counts, ' '::text)::integer[] AS term_counts
           FROM ROWS FROM (
             pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::integer[]),
             pg_catalog.unnest($5::bigint[]), pg_catalog.unnest($6::integer[]), pg_catalog.unnest($7::integer[]),
             pg_catalog.unnest($8::text[]), pg_catalog.unnest($9::integer[]), pg_catalog.unnest($10::boolean[]),
             pg_catalog.unnest($11::text[]), pg_catalog.unnest($12::text[]), pg_catalog.unnest($13::boolean[]),
             pg_catalog.unnest($14::text[]), pg_catalog.unnest($15::text[]), pg_catalog.unnest($16::integer[]),
             pg_catalog.unnest($17::text[])
           )
                AS u(session_id, source, chunk_index, start_offset, first_message, last_message, text, token_count,
                     has_code, languages, memory_type, starts_exchange, last_uuid, terms, term_tokens, term_counts))
         INSERT INTO ctx_team.chunks AS c (team_id, session_id, source, chunk_index, start_offset, first_message,
           last_message, text, token_count, has_code, languages, memory_type, starts_exchange, last_uuid, terms,
           term_tokens, term_counts)
         SELECT u.team_id, u.session_id, u.source, u.chunk_index, u.start_offset, u.first_message, u.last_message,
                u.text, u.token_count, u.has_code, u.languages, u.memory_type, u.starts_exchange, u.last_uuid, u.terms,
                u.term_tokens, u.term_counts
         FROM u
         -- A scalar subquery, not NOT EXISTS: it stays one primary-key probe per row, where an anti-join could be
         -- planned as a scan of the whole table.
         WHERE NOT coalesce((
           SELECT (o.start_offset, o.first_message, o.last_message, o.text, o.token_count, o.has_code, o.languages,
                   o.memory_type, o.starts_exchange, o.last_uuid)
                  IS NOT DISTINCT FROM (u.start_offset, u.first_message, u.last_message, u.text, u.token_count,
                   u.has_code, u.languages, u.memory_type, u.starts_exchange, u.last_uuid)
                  -- One pushed before the server kept term statistics or counts is sent again, with them.
                  AND o.term_counts IS NOT NULL
           FROM ctx_team.chunks o
           WHERE o.team_id = u.team_id AND o.session_id = u.session_id AND o.source = u.source
             AND o.chunk_index = u.chunk_index), false)
         ON CONFLICT (team_id, session_id, source, chunk_index) DO UPDATE SET start_offset = excluded.start_offset,
           first_message = excluded.first_message, last_message = excluded.last_message, text = excluded.text,
           token_count = excluded.token_count, has_code = excluded.has_code, languages = excluded.languages,
           memory_type = excluded.memory_type, starts_exchange = excluded.starts_exchange, last_uuid = excluded.last_uuid,
           terms = excluded.terms, term_tokens = excluded.term_tokens, term_counts = excluded.term_counts
         WHERE c.term_counts IS NULL OR (c.start_offset, c.first_message, c.last_message, c.text, c.token_count, c.has_code, c.languages,
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
