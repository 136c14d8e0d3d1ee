// Ranks sessions for a query (docs/search.md "Ranking"). Relevance decides; recency and chain
// quality only break near-ties:
//   lexical   = (w_best·best + w_passage·passage + w_prompt·prompt + w_avg·average + w_ratio·chunk_ratio) / Σ those weights
//   relevance = min(1, boost · (Σ·lexical + w_feedback·feedback·lexical + w_date·named_date) / (Σ + w_feedback + w_date))
// (prompt, feedback and named_date only when measured: the prompt part is on, the pseudo-relevance feedback found
// terms, the query names a date)
//   score     = relevance · (1 + tieMargin · (w_recency·exp(-days/decay) + w_chain·chain) / (w_recency + w_chain))
// so a session whose relevance is more than (1 + tieMargin) times another's always ranks above it, whatever their
// ages and lineage. `relevance` is the one percentage people see and the one `minSimilarity` is compared with.
// Also reciprocal rank fusion of several retrievers. Pure: the caller passes the clock.
import type { ChunkHit, IndexedSession, MarkerHit, MemoryType, RankedSession, ScoreComponents } from "./model.ts";

/** The ranking part of Config["search"] (core/ does not import config/). */
export interface RankingSettings {
  weights: {
    bestSimilarity: number;
    passageSimilarity: number;
    averageSimilarity: number;
    chunkRatio: number;
    promptSimilarity: number;
    feedbackSimilarity: number;
    namedDate: number;
    recency: number;
    chainQuality: number;
  };
  recencyDecayDays: number;
  /** How far recency and chain quality may lift a session's score: at most by this fraction (0.05 = 5%). */
  tieMargin: number;
  boosts: Record<MemoryType, number>;
}

/** A session without known forks or continuations: the product document's neutral value. */
export const DEFAULT_CHAIN_QUALITY = 0.5;
/** The usual RRF constant (Cormack et al. 2009): damps the influence of the very top ranks. */
export const RRF_K = 60;
const DAY_MS = 86_400_000;

export interface SessionMatches {
  session: IndexedSession;
  /** This session's matched chunks (any order). Must not be empty. */
  hits: readonly ChunkHit[];
  totalChunks: number;
  /** The best passage's similarity (0..1) inside the session's best chunks; absent = the best chunk's. */
  passageSimilarity?: number;
  /**
   * What the person typed (the `User:` messages, chunker.ts typedText) in any of the session's matched chunks, each
   * chunk's scored on the query as one passage, the best kept (0..1); absent = not measured.
   */
  promptSimilarity?: number;
  /** The session's best chunk scored on the query's feedback terms (0..1, feedback.ts); absent = not measured. */
  feedbackSimilarity?: number;
  /** Whether the session was active on a date the query names (query-dates.ts); absent = the query names none. */
  namedDate?: boolean;
  /** From the session's lineage (0..1); absent = DEFAULT_CHAIN_QUALITY. */
  chainQuality?: number;
  lineage?: RankedSession["lineage"];
  team?: RankedSession["team"];
}

/** The relevance weights must not all be 0, and no weight may be negative: a clear message otherwise. */
export function validateRankingSettings(settings: RankingSettings): string | null {
  const w = settings.weights;
  for (const [name, value] of Object.entries(w)) {
    if (!(Number.isFinite(value) && value >= 0)) return `search.weights.${name} must be a number >= 0`;
  }
  if (w.bestSimilarity + w.passageSimilarity + w.averageSimilarity + w.chunkRatio <= 0) {
    return "search.weights: bestSimilarity, passageSimilarity, averageSimilarity and chunkRatio cannot all be 0";
  }
  if (!(settings.tieMargin >= 0 && settings.tieMargin <= 1)) return "search.tieMargin must be from 0 to 1";
  if (!(settings.recencyDecayDays > 0)) return "search.recencyDecayDays must be > 0";
  return null;
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
  const parts = {
    bestSimilarity: best,
    passageSimilarity: clamp01(input.passageSimilarity ?? best),
    averageSimilarity: input.hits.length === 0 ? 0 : sum / input.hits.length,
    chunkRatio: input.totalChunks <= 0 ? 0 : Math.min(1, input.hits.length / input.totalChunks),
    promptSimilarity: input.promptSimilarity === undefined ? null : clamp01(input.promptSimilarity),
    feedbackSimilarity: input.feedbackSimilarity === undefined ? null : clamp01(input.feedbackSimilarity),
    namedDate: input.namedDate === undefined ? null : input.namedDate ? 1 : 0,
    recency: Math.exp(-ageDays / settings.recencyDecayDays),
    chainQuality: clamp01(input.chainQuality ?? DEFAULT_CHAIN_QUALITY),
    boost,
  };
  const relevance = relevanceOf(parts, settings);
  return { ...parts, relevance, multiplier: tieBreakMultiplier(parts, settings) };
}

type Parts = Omit<ScoreComponents, "relevance" | "multiplier">;

function relevanceOf(parts: Parts, settings: RankingSettings): number {
  const w = settings.weights;
  // The prompt part, like feedback and a named date below, counts only where it was measured.
  const prompt = parts.promptSimilarity === null ? 0 : w.promptSimilarity;
  const lexicalWeight = w.bestSimilarity + w.passageSimilarity + w.averageSimilarity + w.chunkRatio + prompt;
  if (!(lexicalWeight > 0)) return 0;
  const lexical =
    (w.bestSimilarity * parts.bestSimilarity +
      w.passageSimilarity * parts.passageSimilarity +
      prompt * (parts.promptSimilarity ?? 0) +
      w.averageSimilarity * parts.averageSimilarity +
      w.chunkRatio * parts.chunkRatio) /
    lexicalWeight;
  // A part that was not measured (null) leaves the mean: its weight counts only where it has a value. Feedback
  // counts as agreement with the query's own evidence (feedback × lexical), so it can lower a session whose best
  // chunks are off the topic of the query's best chunks but never lift one above what its own words earned.
  const feedback = parts.feedbackSimilarity === null ? 0 : w.feedbackSimilarity;
  const date = parts.namedDate === null ? 0 : w.namedDate;
  const weighted =
    lexicalWeight * lexical + feedback * (parts.feedbackSimilarity ?? 0) * lexical + date * (parts.namedDate ?? 0);
  return Math.min(1, (weighted / (lexicalWeight + feedback + date)) * parts.boost);
}

/** 1 .. 1 + tieMargin: how much recency and chain quality lift the score. */
function tieBreakMultiplier(parts: Parts, settings: RankingSettings): number {
  const w = settings.weights;
  const total = w.recency + w.chainQuality;
  if (!(total > 0)) return 1;
  const mix = (w.recency * parts.recency + w.chainQuality * parts.chainQuality) / total;
  return 1 + Math.max(0, settings.tieMargin) * mix;
}

/** The score sessions are ordered by: relevance, lifted by at most the tie margin. */
export function compositeScore(components: ScoreComponents): number {
  return components.relevance * components.multiplier;
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
      score: compositeScore(components),
      components,
      bestChunk,
      markers: markersOf(match.hits),
      matchedChunks: match.hits.length,
      totalChunks: match.totalChunks,
      ...(match.lineage === undefined ? {} : { lineage: match.lineage }),
      ...(match.team === undefined ? {} : { team: match.team }),
    });
  }
  ranked.sort(compareRanked);
  return ranked.slice(0, Math.max(0, limit));
}

/** Higher score first; equal scores: the more recent session, then the id (a stable order). */
export function compareRanked(a: RankedSession, b: RankedSession): number {
  return (
    b.score - a.score ||
    b.session.updatedAt - a.session.updatedAt ||
    (a.session.id < b.session.id ? -1 : a.session.id > b.session.id ? 1 : 0)
  );
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** Memory markers in the order they rank (memory-markers.ts's precedence). */
const MARKER_ORDER: readonly MemoryType[] = ["WORKING_SOLUTION", "PATTERN", "WAITING"];

/** Each marker type among `hits` once, with its best-matching chunk. */
export function markersOf(hits: readonly ChunkHit[]): MarkerHit[] {
  const best = new Map<MemoryType, ChunkHit>();
  for (const hit of hits) {
    if (hit.memoryType === null) continue;
    const seen = best.get(hit.memoryType);
    if (seen === undefined || hit.similarity > seen.similarity) best.set(hit.memoryType, hit);
  }
  return MARKER_ORDER.flatMap((type) => {
    const hit = best.get(type);
    return hit === undefined ? [] : [{ type, chunkIndex: hit.chunkIndex }];
  });
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
