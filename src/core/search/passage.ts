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
