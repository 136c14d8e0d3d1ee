// Ranks sessions for a query (product document "Smart Fork Detection", DESIGN.md "Ranking sessions"):
//   score = w_best·best + w_avg·average + w_ratio·chunk_ratio + w_recency·exp(-days/decay) + w_chain·chain
// divided by the sum of the weights (so any weights keep it in 0..1), times the largest memory-marker boost
// among the session's matched chunks, capped at 1. Also reciprocal rank fusion of several retrievers.
// Pure: the caller passes the clock.
import type { ChunkHit, IndexedSession, MemoryType, RankedSession, ScoreComponents } from "./model.ts";

/** The ranking part of Config["search"] (core/ does not import config/). */
export interface RankingSettings {
  weights: {
    bestSimilarity: number;
    averageSimilarity: number;
    chunkRatio: number;
    recency: number;
    chainQuality: number;
  };
  recencyDecayDays: number;
  boosts: Record<MemoryType, number>;
}

/** Fork lineage is not tracked yet; the product document's neutral value until it is. */
export const DEFAULT_CHAIN_QUALITY = 0.5;
/** The usual RRF constant (Cormack et al. 2009): damps the influence of the very top ranks. */
export const RRF_K = 60;
const DAY_MS = 86_400_000;

export interface SessionMatches {
  session: IndexedSession;
  /** This session's matched chunks (any order). Must not be empty. */
  hits: readonly ChunkHit[];
  totalChunks: number;
}

export function scoreComponents(input: SessionMatches, settings: RankingSettings, now: number): ScoreComponents {
  let best = 0;
  let sum = 0;
  let boost = 1;
  for (const hit of input.hits) {
    best = Math.max(best, hit.similarity);
    sum += hit.similarity;
    if (hit.memoryType !== null) boost = Math.max(boost, settings.boosts[hit.memoryType]);
  }
  const ageDays = Math.max(0, now - input.session.updatedAt) / DAY_MS;
  return {
    bestSimilarity: best,
    averageSimilarity: input.hits.length === 0 ? 0 : sum / input.hits.length,
    chunkRatio: input.totalChunks <= 0 ? 0 : Math.min(1, input.hits.length / input.totalChunks),
    recency: Math.exp(-ageDays / settings.recencyDecayDays),
    chainQuality: DEFAULT_CHAIN_QUALITY,
    boost,
  };
}

export function compositeScore(components: ScoreComponents, settings: RankingSettings): number {
  const w = settings.weights;
  const totalWeight = w.bestSimilarity + w.averageSimilarity + w.chunkRatio + w.recency + w.chainQuality;
  if (totalWeight <= 0) return 0;
  const weighted =
    w.bestSimilarity * components.bestSimilarity +
    w.averageSimilarity * components.averageSimilarity +
    w.chunkRatio * components.chunkRatio +
    w.recency * components.recency +
    w.chainQuality * components.chainQuality;
  return Math.min(1, (weighted / totalWeight) * components.boost);
}

/** Sessions by composite score (ties: more recent first), each with its best chunk. */
export function rankSessions(
  matches: readonly SessionMatches[],
  settings: RankingSettings,
  now: number,
  limit: number,
): RankedSession[] {
  const ranked: RankedSession[] = [];
  for (const match of matches) {
    const bestChunk = bestHit(match.hits);
    if (bestChunk === null) continue;
    const components = scoreComponents(match, settings, now);
    ranked.push({
      session: match.session,
      score: compositeScore(components, settings),
      components,
      bestChunk,
      matchedChunks: match.hits.length,
      totalChunks: match.totalChunks,
    });
  }
  ranked.sort((a, b) => b.score - a.score || b.session.updatedAt - a.session.updatedAt);
  return ranked.slice(0, Math.max(0, limit));
}

function bestHit(hits: readonly ChunkHit[]): ChunkHit | null {
  let best: ChunkHit | null = null;
  for (const hit of hits) if (best === null || hit.similarity > best.similarity) best = hit;
  return best;
}

/**
 * Reciprocal rank fusion: each list votes 1/(k + rank) for its chunks; the fused order is by total vote.
 * RRF sums are not similarities, so each fused hit keeps a calibrated one: the highest any retriever
 * gave it (each retriever's similarity is already 0..1; a chunk one retriever missed just lacks its vote).
 */
export function fuseByReciprocalRank(lists: ReadonlyArray<readonly ChunkHit[]>, k = RRF_K): ChunkHit[] {
  const fused = new Map<number, { hit: ChunkHit; vote: number }>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const vote = 1 / (k + rank + 1);
      const seen = fused.get(hit.chunkId);
      if (seen === undefined) fused.set(hit.chunkId, { hit, vote });
      else {
        seen.vote += vote;
        if (hit.similarity > seen.hit.similarity) seen.hit = { ...seen.hit, similarity: hit.similarity };
      }
    });
  }
  return [...fused.values()].sort((a, b) => b.vote - a.vote).map((entry) => entry.hit);
}
