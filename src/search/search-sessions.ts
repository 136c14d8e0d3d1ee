// Session search for fork detection: BM25 chunk hits (and vector hits when an embedder is configured,
// fused by reciprocal rank), grouped by session; the leading sessions get their best passage scored
// (src/core/search/passage.ts), then all are ranked (src/core/search/ranking.ts, docs/search.md).
import type { Config } from "../config/schema.ts";
import type { ChunkHit, RankedSession, SearchFilters } from "../core/search/model.ts";
import { bestPassageSimilarity } from "../core/search/passage.ts";
import {
  fuseByReciprocalRank,
  rankSessions,
  type SessionMatches,
  validateRankingSettings,
} from "../core/search/ranking.ts";
import { tokenizeForSearch } from "../core/search/tokens.ts";
import { CtxError } from "../errors.ts";
import { readLineage } from "./session-index/lineage.ts";
import type { SessionIndex } from "./session-index/session-index.ts";

export type VectorSearch = (query: string, limit: number, filters: SearchFilters) => Promise<ChunkHit[]>;

/** Chunks fetched per retriever before grouping: enough for every plausible session to show its matches. */
export const CHUNK_CANDIDATES = 300;
export const DEFAULT_SESSION_LIMIT = 5;
/** Sessions whose passages are scored: the leaders by best chunk (at least this many, else twice the limit). */
export const PASSAGE_POOL = 20;
/** A session's passages are looked for in its best few chunks only. */
const PASSAGE_CHUNKS = 2;

export interface SearchSessionsOptions {
  filters?: SearchFilters;
  limit?: number;
  search: Config["search"];
  now?: number;
  vectorSearch?: VectorSearch;
}

export async function searchSessions(
  index: SessionIndex,
  query: string,
  options: SearchSessionsOptions,
): Promise<RankedSession[]> {
  const problem = validateRankingSettings(options.search);
  if (problem !== null) {
    throw new CtxError("CONFIG_INVALID", problem, { hint: "fix the search section of your ctx config (ctx config)" });
  }
  const filters = options.filters ?? {};
  const lexical = index.searchChunks(query, filters, CHUNK_CANDIDATES);
  const hits =
    options.vectorSearch === undefined
      ? lexical
      : fuseByReciprocalRank([lexical, await options.vectorSearch(query, CHUNK_CANDIDATES, filters)]);
  const bySession = new Map<string, ChunkHit[]>();
  for (const hit of hits) {
    const list = bySession.get(hit.sessionId);
    if (list === undefined) bySession.set(hit.sessionId, [hit]);
    else list.push(hit);
  }
  const limit = options.limit ?? DEFAULT_SESSION_LIMIT;
  // The pool: sessions by their best chunk; only these are scored further and ranked.
  const pool = [...bySession.entries()]
    .map(([sessionId, sessionHits]) => ({ sessionId, hits: sessionHits.sort((a, b) => b.similarity - a.similarity) }))
    .sort((a, b) => (b.hits[0]?.similarity ?? 0) - (a.hits[0]?.similarity ?? 0))
    .slice(0, Math.max(PASSAGE_POOL, 2 * limit));
  const sessions = index.getSessions(pool.map((entry) => entry.sessionId));
  const weighted = options.search.weights.passageSimilarity > 0 ? index.weighQuery(query) : null;
  const lineage = readLineage(
    index.db,
    pool.map((entry) => entry.sessionId),
  );
  const matches: SessionMatches[] = [];
  for (const { sessionId, hits: sessionHits } of pool) {
    const session = sessions.get(sessionId);
    if (session === undefined) continue;
    const match: SessionMatches = { session, hits: sessionHits, totalChunks: index.chunkCount(sessionId) };
    const chain = lineage.get(sessionId);
    if (chain !== undefined) {
      match.lineage = chain;
      match.chainQuality = chain.chainQuality;
    }
    if (weighted !== null) {
      let passage = 0;
      for (const hit of sessionHits.slice(0, PASSAGE_CHUNKS)) {
        passage = Math.max(passage, bestPassageSimilarity(tokenizeForSearch(hit.text).split(" "), weighted));
      }
      match.passageSimilarity = passage;
    }
    matches.push(match);
  }
  return rankSessions(matches, options.search, options.now ?? Date.now(), limit);
}

/**
 * Strong matches: relevance (the percentage shown) reaches `search.minSimilarity`. The others are still offered,
 * beneath a "weak matches" line. Relevance alone decides, so recency and chain quality never move a session
 * across the line.
 */
export function isStrongMatch(result: RankedSession, search: Config["search"]): boolean {
  return result.components.relevance >= search.minSimilarity;
}
