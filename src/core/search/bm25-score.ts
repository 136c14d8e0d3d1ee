// FTS5's bm25() computed outside SQLite, for chunks the local index does not hold (a teammate's, fetched from the
// team server): the same formula, constants and term set as the index's own MATCH, over the same token stream
// (tokenizeForSearch, split as FTS5's unicode61 tokenizer splits it), with the statistics the caller passes. Given
// the local index's statistics, a chunk scores exactly what it would score were it in the local index, so local
// and team hits are the same kind of number (docs/team.md "Search"). Pure.
import { BM25_K1 } from "./bm25-calibration.ts";
import { FTS_SEPARATORS } from "./fts-query.ts";

/** FTS5's bm25() length normalisation (b = 0.75). */
export const BM25_B = 0.75;

/** What scoring a chunk for a query needs: the MATCH terms, each one's idf, and the corpus's mean tokens per row. */
export interface Bm25Model {
  terms: readonly string[];
  idf: readonly number[];
  averageTokens: number;
  /** The calibration reference (bm25-calibration.ts referenceScore) the score is divided by. */
  reference: number;
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
  const average = model.averageTokens > 0 ? model.averageTokens : tokens.length;
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * tokens.length) / average);
  let score = 0;
  model.terms.forEach((term, i) => {
    const f = frequency.get(term) ?? 0;
    if (f > 0) score += (model.idf[i] ?? 0) * ((f * (BM25_K1 + 1)) / (f + norm));
  });
  return score;
}
