// Session search for fork detection: BM25 chunk hits (and vector hits when an embedder is configured,
// fused by reciprocal rank), grouped by session and ranked with the composite score (src/core/search/ranking.ts).
import type { Config } from "../config/schema.ts";
import type { ChunkHit, RankedSession, SearchFilters } from "../core/search/model.ts";
import { fuseByReciprocalRank, rankSessions, type SessionMatches } from "../core/search/ranking.ts";
import type { SessionIndex } from "./session-index/session-index.ts";

export type VectorSearch = (query: string, limit: number, filters: SearchFilters) => Promise<ChunkHit[]>;

/** Chunks fetched per retriever before grouping: enough for every plausible session to show its matches. */
export const CHUNK_CANDIDATES = 300;
export const DEFAULT_SESSION_LIMIT = 5;

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
  const sessions = index.getSessions([...bySession.keys()]);
  const matches: SessionMatches[] = [];
  for (const [sessionId, sessionHits] of bySession) {
    const session = sessions.get(sessionId);
    if (session === undefined) continue;
    matches.push({ session, hits: sessionHits, totalChunks: index.chunkCount(sessionId) });
  }
  return rankSessions(matches, options.search, options.now ?? Date.now(), options.limit ?? DEFAULT_SESSION_LIMIT);
}

/**
 * The results worth offering: those whose best chunk reaches `search.minSimilarity` (none = "no good match",
 * say so). Relevance alone decides, so recency and chain quality rank sessions but never hide one.
 */
export function goodMatches(results: readonly RankedSession[], search: Config["search"]): RankedSession[] {
  return results.filter((result) => result.components.bestSimilarity >= search.minSimilarity);
}
