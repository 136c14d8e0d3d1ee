// The team's BM25 statistics on the server (migration 5, docs/team.md "Search"): read for a search's terms, and
// filled in for chunks pushed before the server kept them. Team chunks are scored with these, so a chunk scores the
// same for every member whatever their own index holds. The tokens are ctx's own (core/search/tokens.ts), which
// PostgreSQL cannot compute: each chunk's terms come from the client that pushed it (src/team/push.ts) or, for older
// chunks, from the administrator's ctx here; the server's triggers count them.
import { type CorpusStatistics, chunkTerms } from "../core/search/bm25-score.ts";
import { sqlState, type TeamClient } from "./connect.ts";

/**
 * The team's statistics for `terms` (summed over the authors' rows); null on a server without them (schema older
 * than 5: no such table) or with nothing counted yet, where the caller falls back to its local index's.
 */
export async function readTeamStatistics(
  client: TeamClient,
  teamId: string,
  terms: readonly string[],
): Promise<CorpusStatistics | null> {
  try {
    const { rows } = await client.query<{ term: string | null; docs: string; tokens: string | null }>(
      `SELECT NULL::text AS term, coalesce(pg_catalog.sum(c.chunks), 0)::text AS docs,
              coalesce(pg_catalog.sum(c.tokens), 0)::text AS tokens
         FROM ctx_team.corpus_stats c WHERE c.team_id = $1::bigint
       UNION ALL
       SELECT t.term, pg_catalog.sum(t.docs)::text, NULL
         FROM ctx_team.term_stats t WHERE t.team_id = $1::bigint AND t.term = ANY($2::text[])
        GROUP BY t.term`,
      [teamId, [...new Set(terms)]],
    );
    let chunks = 0;
    let tokens = 0;
    const docs = new Map<string, number>();
    for (const row of rows) {
      if (row.term === null) {
        chunks = Math.max(0, Number(row.docs));
        tokens = Math.max(0, Number(row.tokens));
      } else docs.set(row.term, Math.max(0, Number(row.docs)));
    }
    // Nothing counted yet (a migrate whose fill has not run or was cut off): no statistics to score with, and a
    // planner over an empty corpus would keep one query word at random; the caller falls back to its local index's.
    return chunks === 0 ? null : { chunks, tokens, docs };
  } catch (error) {
    if (sqlState(error) === "42P01") return null;
    throw error;
  }
}

/**
 * The chunks' terms as the server takes them (migration 5; core/search/bm25-score.ts chunkTerms): each one's distinct
 * tokens, space-separated (a token holds no space, and the SQL splits them with string_to_array), how many tokens it
 * has, and how often it holds each term (migration 9: space-separated, in the terms' order), so a search scores the
 * chunk from its counts instead of tokenizing its text (src/search/team-hits.ts). The server's triggers count the
 * terms. Push, the fill below and the tests' direct inserts all send these.
 */
export function chunkTermsParameters(texts: readonly string[]): [string[], number[], string[]] {
  const terms: string[] = [];
  const tokens: number[] = [];
  const counts: string[] = [];
  for (const text of texts) {
    const counted = chunkTerms(text);
    terms.push(counted.terms.join(" "));
    tokens.push(counted.tokens);
    counts.push(counted.counts.join(" "));
  }
  return [terms, tokens, counts];
}

/** Chunks read and counted per round trip. */
const FILL_BATCH = 2_000;

/**
 * Counts the chunks pushed before the server kept statistics (terms NULL) and, with `counts` (a server at migration 9
 * or later), those pushed before it kept each term's count too (term_counts NULL): their stored texts tokenized here, their terms
 * and counts written back, and the server's trigger counts them (a chunk that had its terms is uncounted and counted
 * again, the same). Run by the administrator after `ctx team migrate` (the administrator's policy reaches every row);
 * each batch commits on its own, so a cut-off run resumes where it stopped. Returns how many chunks it counted.
 */
export async function countUncountedChunks(
  client: TeamClient,
  options: { counts: boolean; signal?: AbortSignal },
): Promise<number> {
  const missing = options.counts ? "(c.terms IS NULL OR c.term_counts IS NULL)" : "c.terms IS NULL";
  let counted = 0;
  for (;;) {
    if (options.signal?.aborted === true) return counted;
    const { rows } = await client.query<{
      team_id: string;
      session_id: string;
      source: string;
      chunk_index: number;
      text: string;
    }>(
      `SELECT c.team_id, c.session_id, c.source, c.chunk_index, c.text FROM ctx_team.chunks c
        WHERE ${missing} LIMIT $1::integer`,
      [FILL_BATCH],
    );
    if (rows.length === 0) return counted;
    const [terms, tokens, counts] = chunkTermsParameters(rows.map((row) => row.text));
    const updated = await client.query(
      `UPDATE ctx_team.chunks c SET terms = pg_catalog.string_to_array(u.terms, ' '), term_tokens = u.tokens
              ${options.counts ? ", term_counts = pg_catalog.string_to_array(u.counts, ' ')::integer[]" : ""}
         FROM ROWS FROM (pg_catalog.unnest($1::bigint[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]),
                         pg_catalog.unnest($4::integer[]), pg_catalog.unnest($5::text[]), pg_catalog.unnest($6::integer[]),
                         pg_catalog.unnest($7::text[]))
              AS u(team_id, session_id, source, chunk_index, terms, tokens, counts)
        WHERE c.team_id = u.team_id AND c.session_id = u.session_id AND c.source = u.source
          AND c.chunk_index = u.chunk_index AND ${missing}`,
      [
        rows.map((row) => row.team_id),
        rows.map((row) => row.session_id),
        rows.map((row) => row.source),
        rows.map((row) => row.chunk_index),
        terms,
        tokens,
        counts,
      ],
    );
    // None written (a role whose policy does not reach these rows): stop rather than read them again.
    if ((updated.rowCount ?? 0) === 0) return counted;
    counted += updated.rowCount ?? 0;
  }
}
