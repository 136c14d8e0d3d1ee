// The best passage of a chunk for a query: BM25 over fixed windows of the chunk's token stream (the same
// tokenizeForSearch stream the index holds), calibrated like a chunk's score (bm25-calibration.ts) so 1.0 means
// "every query term, repeatedly". A chunk of ~750 tokens that mentions each query term once, far apart, matches
// as a whole; a passage that holds them together is the better evidence (measured on the LoCoMo dev split:
// docs/search.md). Pure.
import { BM25_K1 } from "./bm25-calibration.ts";

/** The query as the index weighs it: its discriminating terms, each one's idf, and the calibration reference. */
export interface WeightedQuery {
  terms: readonly string[];
  idf: readonly number[];
  reference: number;
}

/** Window length in tokens (about three conversational messages; tuned on the dev split). */
export const PASSAGE_TOKENS = 64;

/**
 * The best window's similarity, 0..1. Windows start at each occurrence of a query term (the best window always
 * starts at one) and span PASSAGE_TOKENS tokens; every window has that length, so BM25's length normalization
 * is neutral and a window's score is Σ idf·f·(k1+1)/(f+k1) over the terms it holds.
 */
export function bestPassageSimilarity(
  tokens: readonly string[],
  query: WeightedQuery,
  windowTokens = PASSAGE_TOKENS,
): number {
  if (!(query.reference > 0) || query.terms.length === 0) return 0;
  const termIndex = new Map<string, number>();
  query.terms.forEach((term, i) => {
    termIndex.set(term, i);
  });
  const positions: number[] = [];
  const which: number[] = [];
  tokens.forEach((token, position) => {
    const i = termIndex.get(token);
    if (i !== undefined) {
      positions.push(position);
      which.push(i);
    }
  });
  if (positions.length === 0) return 0;
  const counts = new Array<number>(query.terms.length).fill(0);
  let best = 0;
  let end = 0;
  for (let start = 0; start < positions.length; start++) {
    const limit = (positions[start] ?? 0) + windowTokens;
    while (end < positions.length && (positions[end] ?? 0) < limit) {
      counts[which[end] ?? 0] = (counts[which[end] ?? 0] ?? 0) + 1;
      end++;
    }
    let score = 0;
    counts.forEach((f, i) => {
      if (f > 0) score += ((query.idf[i] ?? 0) * f * (BM25_K1 + 1)) / (f + BM25_K1);
    });
    if (score > best) best = score;
    counts[which[start] ?? 0] = (counts[which[start] ?? 0] ?? 0) - 1;
  }
  return Math.min(1, best / query.reference);
}

/**
 * How much a word the pool's sessions share may weigh in their passages: at most POOL_WEIGHT_CAP · ln(1 + sessions /
 * sessions holding it), so a word every leading session holds weighs at most 1.04 (ln 2 · 1.5), one in half of them
 * 1.65, one in a single session of twenty 4.57. Tuned on the LoCoMo dev split (docs/search.md "Words the leading
 * sessions share").
 */
export const POOL_WEIGHT_CAP = 1.5;

/**
 * The query as the leading sessions' passages are weighed: each word's idf capped by how many of those sessions hold
 * it (`pool`: each session's token streams, the chunks its passages are looked for in). The corpus's idf says how
 * rare a word is in the whole history; among sessions that all hold it, it tells them apart no more than in a history
 * of only those. Without the cap, a name rare in a large history (everyone's coding sessions, one conversation with
 * Melanie) outweighs the words that tell her sessions apart, and did not when the same sessions were searched alone
 * (issue 36). The reference is unchanged: a passage holding only shared words is a weaker match. A word no session of
 * the pool holds keeps its weight (it matches none of them); fewer than two sessions: nothing to tell apart. Pure.
 */
export function capByPool(query: WeightedQuery, pool: ReadonlyArray<ReadonlyArray<readonly string[]>>): WeightedQuery {
  if (pool.length < 2 || query.terms.length === 0) return query;
  const termIndex = new Map<string, number>();
  query.terms.forEach((term, i) => {
    termIndex.set(term, i);
  });
  const holding = new Array<number>(query.terms.length).fill(0);
  const seen = new Array<boolean>(query.terms.length);
  for (const streams of pool) {
    seen.fill(false);
    for (const stream of streams) {
      for (const token of stream) {
        const i = termIndex.get(token);
        if (i !== undefined) seen[i] = true;
      }
    }
    seen.forEach((held, i) => {
      if (held) holding[i] = (holding[i] ?? 0) + 1;
    });
  }
  const idf = query.idf.map((weight, i) => {
    const n = holding[i] ?? 0;
    return n === 0 ? weight : Math.min(weight, POOL_WEIGHT_CAP * Math.log(1 + pool.length / n));
  });
  return { ...query, idf };
}
