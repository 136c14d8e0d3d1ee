// FTS5's bm25() computed outside SQLite, for chunks the local index does not hold (a teammate's, fetched from the
// team server): the same formula, constants and term set as the index's own MATCH, over the same token stream
// (tokenizeForSearch, split as FTS5's unicode61 tokenizer splits it), with the statistics the caller passes: the
// team's, kept on the server from each chunk's terms (chunkTerms, below), so a team chunk scores the same for every
// member; given the local index's, exactly what it would score there (docs/team.md "Search"). Pure.
import { BM25_K1, weighTerms } from "./bm25-calibration.ts";
import { FTS_SEPARATORS, selectQueryTerms } from "./fts-query.ts";
import type { WeightedQuery } from "./passage.ts";
import { tokenizeForSearch } from "./tokens.ts";

/** FTS5's bm25() length normalisation (b = 0.75). */
export const BM25_B = 0.75;

/** What scoring a chunk for a query needs: the MATCH terms, each one's idf, and the corpus's mean tokens per row. */
export interface Bm25Model {
  terms: readonly string[];
  idf: readonly number[];
  averageTokens: number;
  /** The calibration reference (bm25-calibration.ts referenceScore) the score is divided by. */
  reference: number;
  /**
   * The terms a full-text engine that ranks without idf (the team server's ts_rank, within its candidate caps) is asked
   * for: FTS5's discriminating terms within the postings budget. Absent: `terms`. They differ when a small index is
   * scored whole (bm25-calibration.ts weighTerms), where `terms` holds the common words too.
   */
  serverTerms?: readonly string[];
}

/** The FTS5 tokens of a token stream (tokenizeForSearch output), as unicode61 with ctx's token characters reads it. */
export function ftsTokens(tokenStream: string): string[] {
  return tokenStream.split(FTS_SEPARATORS).filter((token) => token !== "");
}

/** FTS5's bm25() (positive: higher is better) of a row holding `tokens`, for the model's terms. */
export function scoreBm25(tokens: readonly string[], model: Bm25Model): number {
  if (model.terms.length === 0 || tokens.length === 0) return 0;
  const frequency = new Map<string, number>(model.terms.map((term) => [term, 0]));
  for (const token of tokens) {
    const seen = frequency.get(token);
    if (seen !== undefined) frequency.set(token, seen + 1);
  }
  return scoreBm25Counts((term) => frequency.get(term) ?? 0, tokens.length, model);
}

/**
 * The same score from what a row holds instead of its tokens: how often it holds each of the model's terms and how
 * many tokens it has (a team chunk's counts, pushed with it: chunkTerms).
 */
export function scoreBm25Counts(frequencyOf: (term: string) => number, length: number, model: Bm25Model): number {
  if (model.terms.length === 0 || length <= 0) return 0;
  const average = model.averageTokens > 0 ? model.averageTokens : length;
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / average);
  let score = 0;
  model.terms.forEach((term, i) => {
    const f = frequencyOf(term);
    if (f > 0) score += (model.idf[i] ?? 0) * ((f * (BM25_K1 + 1)) / (f + norm));
  });
  return score;
}

/**
 * A corpus's BM25 statistics for some terms: how many rows (chunks) it holds, their tokens in all, and how many rows
 * hold each term (a term absent from `docs` is in none). The local index reads them from FTS5; the team server keeps
 * them for the team's chunks (docs/team.md "Search").
 */
export interface CorpusStatistics {
  chunks: number;
  tokens: number;
  docs: ReadonlyMap<string, number>;
}

/** Two corpora's statistics as one corpus's (a term either does not list is in none of its chunks). */
export function combineStatistics(a: CorpusStatistics, b: CorpusStatistics): CorpusStatistics {
  const docs = new Map(a.docs);
  for (const [term, n] of b.docs) docs.set(term, (docs.get(term) ?? 0) + n);
  return { chunks: a.chunks + b.chunks, tokens: a.tokens + b.tokens, docs };
}

/**
 * What a chunk adds to a corpus's statistics: its distinct FTS5 tokens, how often it holds each (`counts`, in the same
 * order: what scoreBm25Counts scores it by without its text), and how many tokens it has.
 */
export function chunkTerms(text: string): { terms: string[]; counts: number[]; tokens: number } {
  const tokens = ftsTokens(tokenizeForSearch(text));
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return { terms: [...counts.keys()], counts: [...counts.values()], tokens: tokens.length };
}

/** The query terms a corpus is asked about (the index's selectQueryTerms over the query's token stream). */
export function queryTermsOf(text: string): string[] {
  return selectQueryTerms(tokenizeForSearch(text));
}

/**
 * The query weighed by a corpus's statistics, as the session index's weighQuery weighs it by its own: the
 * discriminating terms, each one's idf, and the calibration reference over every query term.
 */
export function weighWithStatistics(text: string, statistics: CorpusStatistics): WeightedQuery {
  const terms = queryTermsOf(text);
  if (terms.length === 0) return { terms: [], idf: [], reference: 0 };
  const frequencies = terms.map((term) => statistics.docs.get(term) ?? 0);
  const { terms: kept, idf, reference } = weighTerms(terms, frequencies, statistics.chunks);
  return { terms: kept, idf, reference };
}
