// Turns a person's query (already passed through tokenizeForSearch) into an FTS5 MATCH expression that
// cannot carry FTS5 syntax: every term is a double-quoted string (quotes doubled inside), terms are
// joined with OR and ranked by BM25. `NEAR`, `*`, `-`, `:`, `^` and parentheses are just characters
// inside a quoted string. Pure.

import { stemEnglish } from "./english-stem.ts";

/**
 * English function words dropped from queries (not from the index): they match most chunks and slow BM25.
 * Both as written and stemmed like the token stream they are compared with (`was` arrives as `wa`).
 */
const STOPWORD_LIST = (
  "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it " +
  "its me my no not of on or our she so than that the their them then there these they this those to too us was we " +
  "were what when where which who why will with would you your"
).split(" ");
const STOPWORDS = new Set([...STOPWORD_LIST, ...STOPWORD_LIST.map(stemEnglish)]);

/** Whether a token is one of the English function words queries drop (as written or stemmed). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/**
 * What the index's FTS5 tokenizer (unicode61, every printable ASCII character a token character) treats
 * as a separator: splitting query terms the same way makes each term exactly one FTS5 token, so its
 * document frequency can be looked up for the similarity calibration. unicode61's token characters are its
 * default categories (L*, N*, Co) plus the tokenchars: a mark (M*, such as the emoji variation selector U+FE0F)
 * separates, as FTS5 itself showed (core/search/bm25-score.test.ts counts every chunk's tokens both ways).
 */
export const FTS_SEPARATORS = /[^\p{L}\p{N}\p{Co}\x21-\x7e]+/u;

/** More terms than this add nothing to a BM25 ranking but cost time on every matching chunk. */
export const MAX_QUERY_TERMS = 48;

/** The distinct query terms, in order, without stopwords (unless the query is nothing but stopwords). */
export function selectQueryTerms(tokenStream: string): string[] {
  const all = [...new Set(tokenStream.split(FTS_SEPARATORS).filter((term) => term !== ""))];
  const content = all.filter((term) => !STOPWORDS.has(term));
  return (content.length > 0 ? content : all).slice(0, MAX_QUERY_TERMS);
}

export function quoteFtsTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** The MATCH expression for these terms, or null when there is nothing to search for. */
export function buildFtsMatch(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(quoteFtsTerm).join(" OR ");
}
