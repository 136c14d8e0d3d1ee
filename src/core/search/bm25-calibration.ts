// Maps an FTS5 BM25 score, which grows without bound and differs in scale from query to query, to a
// similarity in 0..1 that means the same for every query:
//
//   similarity = min(1, bm25 / reference),  reference = Σ over query terms of idf(t) · R(k1+1)/(R+k1)
//
// `reference` is the BM25 score a chunk of average length would get if it held every query term
// REFERENCE_TERM_FREQUENCY times. So 1.0 = "every query term, repeatedly", and a chunk that holds query
// terms carrying half of the query's IDF weight (rare words weigh more than common ones) once each scores
// about 0.3. Terms the index has never seen still count in the reference: a query about things no
// session mentions should look like a weak match everywhere. idf and k1 follow FTS5's own bm25(). Pure.

/** FTS5's bm25() constants (k1 = 1.2, b = 0.75). */
export const BM25_K1 = 1.2;
/**
 * Fitted on the fixture transcripts: a query of five words taken from one chunk gives that chunk 0.85 (median;
 * 0.67 at the 10th percentile) and the best chunk of any other session 0.22 (median), so the scale leaves room
 * above and below (with 2 the median own chunk is 0.97, at the cap; with 5 it is 0.75).
 */
export const REFERENCE_TERM_FREQUENCY = 3;

/** FTS5's inverse document frequency: ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6. */
export function inverseDocumentFrequency(docsWithTerm: number, totalDocs: number): number {
  const idf = Math.log((totalDocs - docsWithTerm + 0.5) / (docsWithTerm + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/**
 * Lucene's smoothed idf, ln(1 + (N - n + 0.5) / (n + 0.5)): never 0, so a term in most documents still counts a
 * little. Used where the index is scored whole (weighTerms).
 */
export function smoothedInverseDocumentFrequency(docsWithTerm: number, totalDocs: number): number {
  return Math.log(1 + (totalDocs - docsWithTerm + 0.5) / (docsWithTerm + 0.5));
}

/** The BM25 score of the reference chunk for a query whose terms occur in these many documents each. */
export function referenceScore(
  docsWithEachTerm: readonly number[],
  totalDocs: number,
  idf: (docsWithTerm: number, totalDocs: number) => number = inverseDocumentFrequency,
): number {
  const r = REFERENCE_TERM_FREQUENCY;
  const saturation = (r * (BM25_K1 + 1)) / (r + BM25_K1);
  let sum = 0;
  for (const n of docsWithEachTerm) sum += idf(n, totalDocs) * saturation;
  return sum;
}

/**
 * An index of at most this many chunks is scored whole when a query term is in half its chunks or more: FTS5's idf
 * would weigh that term 0, and in a small history the words a session is about are in most of its chunks (4
 * sessions, 14 chunks, one session holding 9: "session", "hook", "command" counted for nothing). Reading every
 * posting of such a term costs little below this size (docs/search.md "Small indexes").
 */
export const WHOLE_INDEX_CHUNKS = 1_000;

/** How a query's terms are weighed over a corpus: the terms scored, each one's idf, the calibration reference. */
export interface TermWeighing {
  terms: string[];
  idf: number[];
  reference: number;
  /**
   * true: every chunk holding a term is scored, with the smoothed idf (a small index with a common query term);
   * false: FTS5's own bm25() ranks the discriminating terms' chunks.
   */
  whole: boolean;
}

/**
 * The one rule for weighing a query's terms (the session index, the team's statistics): FTS5's idf over the
 * discriminating terms, or, in an index of at most WHOLE_INDEX_CHUNKS chunks where a term the index holds is in half
 * its chunks or more, every term with the smoothed idf.
 */
export function weighTerms(
  terms: readonly string[],
  docsWithEachTerm: readonly number[],
  totalDocs: number,
): TermWeighing {
  const common = docsWithEachTerm.some((n) => n > 0 && inverseDocumentFrequency(n, totalDocs) <= 1e-6);
  if (common && totalDocs <= WHOLE_INDEX_CHUNKS) {
    const idf = terms.map((_, i) => smoothedInverseDocumentFrequency(docsWithEachTerm[i] ?? 0, totalDocs));
    const reference = referenceScore(docsWithEachTerm, totalDocs, smoothedInverseDocumentFrequency);
    return { terms: [...terms], idf, reference, whole: true };
  }
  const kept = selectDiscriminatingTerms(terms, docsWithEachTerm, totalDocs);
  const idf = kept.map((term) => inverseDocumentFrequency(docsWithEachTerm[terms.indexOf(term)] ?? 0, totalDocs));
  return { terms: kept, idf, reference: referenceScore(docsWithEachTerm, totalDocs), whole: false };
}

/**
 * The query terms worth matching: a term in at least half the documents has FTS5's floored idf (1e-6), adds
 * nothing to any score, yet makes FTS5 score every document holding it. When every term the documents hold is that
 * common, the rarest of them is kept too, so the query still finds something (terms no document holds, kept for
 * their weight, find nothing: "the phoenix server since January 2030" in an index where every chunk says phoenix).
 */
export function selectDiscriminatingTerms(
  terms: readonly string[],
  docsWithEachTerm: readonly number[],
  totalDocs: number,
): string[] {
  const documents = (i: number) => docsWithEachTerm[i] ?? 0;
  const discriminating = (i: number) => inverseDocumentFrequency(documents(i), totalDocs) > 1e-6;
  const kept = terms.filter((_, i) => discriminating(i));
  if (terms.some((_, i) => discriminating(i) && documents(i) > 0)) return kept;
  let rarest = -1;
  terms.forEach((_, i) => {
    if (documents(i) > 0 && (rarest < 0 || documents(i) < documents(rarest))) rarest = i;
  });
  // No term held at all: every term is kept (each has the highest idf), and nothing is found.
  return rarest < 0 ? kept : terms.filter((_, i) => i === rarest || discriminating(i));
}

/** `score` is FTS5's bm25() negated (higher = better). */
export function calibrateBm25(score: number, reference: number): number {
  if (!(reference > 0) || !(score > 0)) return 0;
  return Math.min(1, score / reference);
}
