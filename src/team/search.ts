// Team search's server side: the candidate chunks of the member's team for a query, from PostgreSQL full-text search
// (ctx_team.chunks.search, a tsvector of the 'english' configuration with a GIN index), and their sessions with the
// author's handle and the project's identity. Row-level security scopes every row to the member's teams; the team id
// narrows to the one joined. Scoring is not done here: the candidates' texts are scored on this machine with BM25 over
// the team's statistics, read here too (./term-stats.ts; src/search/team-hits.ts, docs/team.md "Search").
import type { SearchFilters } from "../core/search/model.ts";
import {
  type TeamCandidates,
  type TeamChunkRow,
  type TeamSessionRow,
  type TeamWeighing,
  unweighedQuery,
} from "../core/search/team-candidates.ts";
import { projectName } from "../core/team/project-identity.ts";
import { sqlState, type TeamClient, type TeamConnectOptions, withTeamClient } from "./connect.ts";
import { requireMembership } from "./inspect.ts";
import type { KeptTeamConnection } from "./kept-connection.ts";
import { readTeamStatistics } from "./term-stats.ts";

export interface TeamSearchRequest {
  /** The text a server without statistics is sent (and any request without `weighing`); a function is called only then. */
  query: string | (() => string);
  /** How many chunks the server proposes, best by ts_rank first. */
  limit: number;
  filters?: Pick<SearchFilters, "since" | "until">;
  /** Keep only projects whose identity contains this text (case-insensitive). */
  projectContains?: string;
  /** Weigh by the team's statistics; absent: `query` is sent as it is and no statistics are read. */
  weighing?: TeamWeighing;
  /** Called once the candidates' statement is handed to the connection (core/search/team-candidates.ts). */
  onAsked?: () => void;
}

/**
 * The query's 'english' lexemes, all of them (ALL_SQL) and any of them (ANY_SQL): plainto_tsquery normalises the
 * words (and can carry no tsquery syntax); its ANDs become ORs so a chunk holding some of the words is a candidate,
 * as in the local index.
 */
const ALL_SQL = "pg_catalog.plainto_tsquery('english'::pg_catalog.regconfig, $2::text)";
const ANY_SQL = `pg_catalog.replace((${ALL_SQL})::text, ' & '::text, ' | '::text)::pg_catalog.tsquery`;

/** A filtered search asks for this many times the candidates: the filters apply after the function's limit. */
const FILTERED_FACTOR = 4;

export async function fetchTeamCandidates(
  client: TeamClient,
  team: string,
  request: TeamSearchRequest,
): Promise<TeamCandidates> {
  const member = await requireMembership(client, team);
  const weighing = request.weighing;
  const statistics = weighing === undefined ? null : await readTeamStatistics(client, member.id, weighing.terms);
  const query =
    weighing === undefined || statistics === null ? unweighedQuery(request) : weighing.queryText(statistics);
  const scored = weighing === undefined || statistics === null ? [] : [...(weighing.scoredTerms?.(statistics) ?? [])];
  const since = request.filters?.since;
  const until = request.filters?.until;
  const filtered = since !== undefined || until !== undefined || request.projectContains !== undefined;
  const parameters = {
    teamId: member.id,
    query,
    limit: filtered ? request.limit * FILTERED_FACTOR : request.limit,
    since: since === undefined ? null : new Date(since).toISOString(),
    until: until === undefined ? null : new Date(until).toISOString(),
    projectContains: request.projectContains ?? null,
    scored,
  };
  const candidates = queryCandidates(client, parameters, filtered);
  request.onAsked?.();
  const { rows } = await candidates;
  const chunks = rows.map((row): TeamChunkRow => {
    const chunk: TeamChunkRow = {
      sessionId: row.session_id,
      source: row.source,
      chunkIndex: Number(row.chunk_index),
      text: row.text,
      memoryType: row.memory_type,
      lastUuid: row.last_uuid,
    };
    const counts = termCounts(scored, row.counts, row.tokens, row.text);
    return counts === null ? chunk : { ...chunk, counts };
  });
  const ids =
    weighing?.sessionsToRead === undefined || statistics === null
      ? [...new Set(chunks.map((chunk) => chunk.sessionId))]
      : weighing.sessionsToRead(chunks, statistics);
  const sessionsRead =
    ids.length === 0 ? Promise.resolve(new Map<string, TeamSessionRow>()) : readTeamSessions(client, member.id, ids);
  sessionsRead.catch(() => {}); // awaited below; a throw before that must not leave it unhandled
  if (weighing === undefined || statistics === null) return { chunks, sessions: await sessionsRead, statistics };
  // The feedback words are picked (tokenizing the best candidates' texts, 10-28 ms of a cold search) while the server
  // reads the sessions (a 16-26 ms round trip; issue 36), then their statistics are read.
  const asked = new Set(weighing.terms);
  const more = (weighing.moreTerms?.(chunks, statistics) ?? []).filter((term) => !asked.has(term));
  const sessions = await sessionsRead;
  const extra = more.length === 0 ? null : await readTeamStatistics(client, member.id, more);
  if (extra === null) return { chunks, sessions, statistics };
  const docs = new Map([...statistics.docs, ...extra.docs]);
  return { chunks, sessions, statistics: { ...statistics, docs } };
}

interface CandidateParameters {
  teamId: string;
  query: string;
  limit: number;
  since: string | null;
  until: string | null;
  projectContains: string | null;
  /** The terms whose counts each candidate comes with, in this order. */
  scored: readonly string[];
}

interface CandidateRow {
  session_id: string;
  source: string;
  chunk_index: number;
  text: string;
  memory_type: TeamChunkRow["memoryType"];
  last_uuid: string | null;
  counts: number[] | null;
  tokens: number | null;
}

/** The session filters on a candidate (s, its session, and p, its project), each off when its parameter is NULL. */
const SESSION_FILTERS = `
  WHERE ($4::pg_catalog.timestamptz IS NULL
         OR coalesce(s.ended_at, s.started_at, s.pushed_at) >= $4::pg_catalog.timestamptz)
    AND ($5::pg_catalog.timestamptz IS NULL
         OR coalesce(s.started_at, s.ended_at, s.pushed_at) <= $5::pg_catalog.timestamptz)
    AND ($6::text IS NULL
         OR pg_catalog.strpos(pg_catalog.lower(p.remote_url || '/'::text || p.repo_path), pg_catalog.lower($6::text)) > 0)`;

/**
 * Each candidate's session, read by its key (LIMIT 1 keeps the subquery from becoming a join: the planner cannot size
 * a function's result, and a plain join was a hash join over every session of the team, a cost that grew with the
 * library; bench/team-scale.bench.ts: 44 of 185 ms at 30,000 sessions), and its project, for the filters.
 */
const CANDIDATE_SESSIONS = `
  CROSS JOIN LATERAL (
    SELECT s.project_id, s.started_at, s.ended_at, s.pushed_at FROM ctx_team.sessions s
     WHERE s.team_id = $1::bigint AND s.id = c.session_id LIMIT 1) s
  JOIN ctx_team.projects p ON p.team_id = $1::bigint AND p.id = s.project_id`;

/** Servers whose schema predates ctx_team.search_candidates (version 16): asked the older way from then on. */
const withoutCountedCandidates = new WeakSet<TeamClient>();

/**
 * The candidates, best ts_rank first, through ctx_team.search_candidates (migration 16: search_chunks' candidates,
 * found through the GIN index that row-level security would bar a member's own query from, each with its counts of
 * the scored terms ($7, in their order; migration 9: NULL for a chunk pushed before, which is scored from its text)
 * and its tokens). The session filters, read under the members' policies, join only a filtered search: a filter drops
 * candidates after the function's limit, so a filtered search asks for more. Without filters no session is read here:
 * the search reads the candidates' sessions next, under the same policies, and drops a candidate whose session it
 * does not see. A server older than version 16 is asked through search_chunks, each candidate's counts read by its
 * key (src/core/team/migrations.ts has why that was slower).
 */
async function queryCandidates(
  client: TeamClient,
  parameters: CandidateParameters,
  filtered: boolean,
): Promise<{ rows: CandidateRow[] }> {
  const { teamId, query, limit, since, until, projectContains, scored } = parameters;
  const values = [teamId, query, limit, since, until, projectContains, scored];
  if (!withoutCountedCandidates.has(client)) {
    // The scored terms are the statement's last parameter: $7 after the filters', $4 without them.
    const counted = (terms: string) =>
      `SELECT c.session_id, c.source, c.chunk_index, c.text, c.memory_type, c.last_uuid, c.counts, c.tokens
         FROM ctx_team.search_candidates($1::bigint, ${ALL_SQL}, ${ANY_SQL}, $3::integer, ${terms}::text[]) c`;
    try {
      return filtered
        ? await client.query<CandidateRow>(
            `${counted("$7")} ${CANDIDATE_SESSIONS} ${SESSION_FILTERS} ORDER BY c.rank DESC`,
            values,
          )
        : await client.query<CandidateRow>(`${counted("$4")} ORDER BY c.rank DESC`, [teamId, query, limit, scored]);
    } catch (error) {
      if (sqlState(error) !== "42883") throw error; // undefined_function: a server at schema 15 or older
      withoutCountedCandidates.add(client);
    }
  }
  return client.query<CandidateRow>(
    // Each candidate's counts by its key, its tokens capped at twice the characters of the text the function returned.
    `SELECT c.session_id, c.source, c.chunk_index, c.text, c.memory_type, c.last_uuid, k.counts, k.tokens
       FROM ctx_team.search_chunks($1::bigint, ${ALL_SQL}, ${ANY_SQL}, $3::integer) c
       ${CANDIDATE_SESSIONS}
       LEFT JOIN LATERAL (
         SELECT ARRAY(SELECT coalesce(x.term_counts[pg_catalog.array_position(x.terms, q.term)], 0)
                        FROM pg_catalog.unnest($7::text[]) WITH ORDINALITY AS q(term, n) ORDER BY q.n) AS counts,
                LEAST(x.term_tokens, 2 * pg_catalog.char_length(c.text)) AS tokens
           FROM ctx_team.chunks x
          WHERE x.team_id = $1::bigint AND x.session_id = c.session_id AND x.source = c.source
            AND x.chunk_index = c.chunk_index AND x.term_counts IS NOT NULL AND x.term_tokens IS NOT NULL
            AND pg_catalog.cardinality($7::text[]) > 0
          LIMIT 1) k ON true
       ${SESSION_FILTERS}
      ORDER BY c.rank DESC`,
    values,
  );
}

/**
 * A candidate's counts of the scored terms as the server sent them, each an integer from 0 to the chunk's tokens, and
 * those at most twice its text's characters, more than ctx's tokenizer ever gives (a teammate's row is untrusted: a
 * count past them is one its text could not hold); null when they did not come whole.
 */
function termCounts(
  terms: readonly string[],
  counts: readonly unknown[] | null,
  tokens: unknown,
  text: string,
): NonNullable<TeamChunkRow["counts"]> | null {
  const sent = Number(tokens);
  if (terms.length === 0 || counts === null || counts.length !== terms.length) return null;
  if (!Number.isSafeInteger(sent) || sent < 0) return null;
  const length = Math.min(sent, 2 * text.length);
  const frequencies = new Map<string, number>();
  terms.forEach((term, i) => {
    const count = Number(counts[i]);
    frequencies.set(term, Number.isSafeInteger(count) ? Math.min(Math.max(count, 0), length) : 0);
  });
  return { frequencies, tokens: length };
}

async function readTeamSessions(
  client: TeamClient,
  teamId: string,
  ids: readonly string[],
): Promise<Map<string, TeamSessionRow>> {
  const { rows } = await client.query<{
    id: string;
    handle: string | null;
    author: string;
    remote_url: string;
    repo_path: string;
    title: string;
    branch: string | null;
    started_at: Date | null;
    ended_at: Date | null;
    message_count: number;
    memory_markers: string[];
    forkable: boolean;
    total_chunks: string;
    chain_quality: unknown;
    labels: string[] | null;
    note: string | null;
  }>(
    `SELECT s.id, m.handle, s.author, p.remote_url, p.repo_path, s.title, s.branch, s.started_at, s.ended_at,
            s.message_count, s.memory_markers, s.forkable, s.lineage -> 'chainQuality'::text AS chain_quality,
            s.labels, s.note,
            (SELECT pg_catalog.count(*) FROM ctx_team.chunks c WHERE c.team_id = s.team_id AND c.session_id = s.id)
              AS total_chunks
       FROM ctx_team.sessions s
       JOIN ctx_team.projects p ON p.team_id = s.team_id AND p.id = s.project_id
       LEFT JOIN ctx_team.members m ON m.team_id = s.team_id AND m.role_name = s.author
      WHERE s.team_id = $1::bigint AND s.id = ANY($2::text[])`,
    [teamId, ids],
  );
  const sessions = new Map<string, TeamSessionRow>();
  for (const row of rows) {
    const chain = typeof row.chain_quality === "number" ? row.chain_quality : null;
    sessions.set(row.id, {
      id: row.id,
      // A member removed from the team keeps its rows until deleted: shown by its role.
      author: row.handle ?? row.author,
      project: projectName({ remoteUrl: row.remote_url, repoPath: row.repo_path }),
      title: row.title,
      branch: row.branch,
      startedAt: row.started_at?.getTime() ?? null,
      endedAt: row.ended_at?.getTime() ?? null,
      messageCount: Number(row.message_count),
      memoryMarkers: row.memory_markers,
      forkable: row.forkable,
      totalChunks: Number(row.total_chunks),
      chainQuality: chain,
      labels: Array.isArray(row.labels) ? row.labels.filter((label) => typeof label === "string") : [],
      note: typeof row.note === "string" ? row.note : null,
    });
  }
  return sessions;
}

/**
 * The candidates on one connection. `connectTimeoutMs` bounds connecting and each query alike (the caller also
 * bounds the whole, src/team/search-fetch.ts), so a stalled server never holds a search. A connection of its own is
 * ended without waiting for the server to close it.
 */
export function searchTeam(
  url: string,
  options: TeamConnectOptions,
  team: string,
  request: TeamSearchRequest,
  kept?: KeptTeamConnection,
): Promise<TeamCandidates> {
  const bounded = { ...options, queryTimeoutMs: options.connectTimeoutMs };
  const work = (client: TeamClient) => fetchTeamCandidates(client, team, request);
  return kept === undefined ? withTeamClient(url, bounded, work, "background") : kept.run(url, bounded, work);
}
