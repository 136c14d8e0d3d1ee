// Session-retrieval metrics for the retrieval benchmark: hit@k, reciprocal rank and the LoCoMo paper's R@k
// (the share of a question's evidence items whose session is in the top k), averaged per query, per category
// and overall. Pure functions over ranked session ids, so they are unit-tested on hand-made examples.

/** One question's outcome: the ranking a retriever produced and what the answer key says is relevant. */
export interface QueryOutcome {
  category: string;
  /** Session ids, best first (may be shorter than the corpus: missing sessions count as not retrieved). */
  ranked: readonly string[];
  /** The distinct sessions holding the evidence. */
  relevant: readonly string[];
  /** One session id per evidence item (a session appears as often as it holds evidence). */
  evidenceSessions: readonly string[];
}

export interface RetrievalMetrics {
  queries: number;
  hitAt1: number;
  /** The first three: what ctx_fork_detect's description asks the model to offer. */
  hitAt3: number;
  hitAt5: number;
  mrr: number;
  /** The paper's R@k: evidence items whose session is in the top k, per query, averaged. */
  recallAt2: number;
  recallAt5: number;
  recallAt10: number;
  /** Every relevant session in the top 5 (the strict reading multi-hop questions need). */
  allAt5: number;
  /** Questions answered with no session at all (a count, not a share). */
  emptyAnswers: number;
}

/** 1-based rank of the first relevant session, or null when none was retrieved. */
export function firstRelevantRank(ranked: readonly string[], relevant: readonly string[]): number | null {
  const wanted = new Set(relevant);
  const index = ranked.findIndex((id) => wanted.has(id));
  return index < 0 ? null : index + 1;
}

export function hitAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rank = firstRelevantRank(ranked, relevant);
  return rank !== null && rank <= k ? 1 : 0;
}

export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const rank = firstRelevantRank(ranked, relevant);
  return rank === null ? 0 : 1 / rank;
}

/** The share of evidence items whose session is in the top k (LoCoMo paper, Table 3). */
export function evidenceRecallAtK(ranked: readonly string[], evidenceSessions: readonly string[], k: number): number {
  if (evidenceSessions.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return evidenceSessions.filter((id) => top.has(id)).length / evidenceSessions.length;
}

export function allRelevantAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return relevant.length > 0 && relevant.every((id) => top.has(id)) ? 1 : 0;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Means over the outcomes, rounded to 3 decimals (NaN-free: an empty list gives zeros). */
export function summarizeOutcomes(outcomes: readonly QueryOutcome[]): RetrievalMetrics {
  const mean = (pick: (o: QueryOutcome) => number) =>
    outcomes.length === 0 ? 0 : round(outcomes.reduce((sum, o) => sum + pick(o), 0) / outcomes.length);
  return {
    queries: outcomes.length,
    hitAt1: mean((o) => hitAtK(o.ranked, o.relevant, 1)),
    hitAt3: mean((o) => hitAtK(o.ranked, o.relevant, 3)),
    hitAt5: mean((o) => hitAtK(o.ranked, o.relevant, 5)),
    mrr: mean((o) => reciprocalRank(o.ranked, o.relevant)),
    recallAt2: mean((o) => evidenceRecallAtK(o.ranked, o.evidenceSessions, 2)),
    recallAt5: mean((o) => evidenceRecallAtK(o.ranked, o.evidenceSessions, 5)),
    recallAt10: mean((o) => evidenceRecallAtK(o.ranked, o.evidenceSessions, 10)),
    allAt5: mean((o) => allRelevantAtK(o.ranked, o.relevant, 5)),
    emptyAnswers: outcomes.filter((o) => o.ranked.length === 0).length,
  };
}

/** Overall and per-category metrics; categories listed in `headlineExcludes` stay out of `overall` (reported apart). */
export function summarizeByCategory(
  outcomes: readonly QueryOutcome[],
  headlineExcludes: readonly string[] = [],
): { overall: RetrievalMetrics; byCategory: Record<string, RetrievalMetrics> } {
  const categories = [...new Set(outcomes.map((o) => o.category))].sort();
  const byCategory: Record<string, RetrievalMetrics> = {};
  for (const category of categories)
    byCategory[category] = summarizeOutcomes(outcomes.filter((o) => o.category === category));
  return { overall: summarizeOutcomes(outcomes.filter((o) => !headlineExcludes.includes(o.category))), byCategory };
}
