// Pseudo-relevance feedback (RM3, Lavrenko & Croft 2001; Abdul-Jaleel et al. 2004): the query's best chunks are
// assumed relevant, and the words they share beyond the query's own join it, weighted below the query's terms.
// A question asks "what might John's financial status be?" while the session talks of his salary and his house:
// the best chunks about John's money bring those words in. Measured on the LoCoMo dev split (docs/search.md): a
// session's agreement with the feedback terms weighs its own lexical score (weights.feedbackSimilarity,
// ranking.ts); mixed into the passage score they cost hit@1. Pure: the caller tokenizes, looks up document
// frequencies and scores (search-sessions.ts).
import { BM25_K1, REFERENCE_TERM_FREQUENCY } from "./bm25-calibration.ts";
import { isStopword } from "./fts-query.ts";
import type { WeightedQuery } from "./passage.ts";

/** A feedback document: its token stream (tokenizeForSearch) and how much it is believed (its similarity). */
export interface FeedbackDocument {
  tokens: readonly string[];
  weight: number;
}

export interface FeedbackTerm {
  term: string;
  weight: number;
}

/** Tokens that carry no topic: too short, digits only, or function words. */
function isContentToken(token: string): boolean {
  return token.length >= 3 && !/^\d+$/.test(token) && !isStopword(token);
}

/**
 * RM1 term weights over the feedback documents, Σ_D weight(D) · tf(t, D) / |D|, without the query's own terms
 * and tokens that carry no topic; the `max` heaviest, heaviest first (ties by term, so the order is stable).
 */
export function feedbackTerms(
  documents: readonly FeedbackDocument[],
  exclude: ReadonlySet<string>,
  max: number,
): FeedbackTerm[] {
  const weights = new Map<string, number>();
  for (const document of documents) {
    if (document.tokens.length === 0 || !(document.weight > 0)) continue;
    const share = document.weight / document.tokens.length;
    for (const token of document.tokens) {
      if (exclude.has(token) || !isContentToken(token)) continue;
      weights.set(token, (weights.get(token) ?? 0) + share);
    }
  }
  return [...weights.entries()]
    .map(([term, weight]) => ({ term, weight }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
    .slice(0, Math.max(0, max));
}

/** The query's best chunks taken as relevant (tuned on the LoCoMo dev split: 5 to 15 measure the same). */
export const FEEDBACK_DOCUMENTS = 8;
/**
 * Candidate terms by RM1 weight whose document frequency is then looked up. A cold lookup reads the term's whole
 * posting list (their cost on a cold search: docs/search.md "Scale", bench/run.ts index); 10 rank as well as 40
 * (docs/search.md).
 */
export const FEEDBACK_CANDIDATES = 10;
/** The feedback terms kept: RM1 weight times idf (rare words tell more), the heaviest; common ones drop out. */
export const FEEDBACK_TERMS = 10;
/** How far up the calibration goes: a chunk holding feedback terms worth this share of the reference scores 1. */
const FEEDBACK_REFERENCE_SHARE = 0.5;

/**
 * The feedback terms as a weighted query for bestPassageSimilarity: each term's idf scaled by its RM1 weight
 * relative to the heaviest (so the best-supported term counts fully, a stray one barely), calibrated so that a
 * chunk holding feedback terms worth FEEDBACK_REFERENCE_SHARE of the reference (every term, repeatedly) scores 1.
 */
export function feedbackQuery(terms: readonly { term: string; weight: number; idf: number }[]): WeightedQuery | null {
  const kept = terms.filter((term) => term.idf > 0 && term.weight > 0);
  const heaviest = kept.reduce((max, term) => Math.max(max, term.weight), 0);
  if (!(heaviest > 0)) return null;
  const idf = kept.map((term) => (term.weight * term.idf) / heaviest);
  const saturation = (REFERENCE_TERM_FREQUENCY * (BM25_K1 + 1)) / (REFERENCE_TERM_FREQUENCY + BM25_K1);
  const reference = idf.reduce((sum, value) => sum + value, 0) * saturation * FEEDBACK_REFERENCE_SHARE;
  return { terms: kept.map((term) => term.term), idf, reference };
}
