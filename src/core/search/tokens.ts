// The code-aware token stream behind full-text search (chunks_fts, BM25): the same function runs over chunk text
// when it is indexed and over a query, so both sides agree. FTS5's unicode61 tokenizer then splits it on spaces.
// Identifiers and paths give their whole form (separators removed: `parseTranscriptLine` → `parsetranscriptline`,
// `src/core/redact/redact.ts` → `srccoreredactts`) and their parts (`parse transcript line`, `src core redact ts`), so a
// query for the exact identifier ranks it first and a query in plain words still finds it.
// Whole forms drop `_` on purpose: unicode61 treats `_` as a separator unless the table says otherwise.
// Every token is stemmed (src/core/search/english-stem.ts: `painting` → `paint`; whole forms too, so a token in this
// stream reads the same when it is tokenized again, but for Porter's own few: `characterize` → `character` → `charact`,
// and a stem that is a contraction typed without its apostrophe, `canting` → `cant` → `can t`). A word is read in its
// one form first (./word-forms.ts: `colour` → `color`, `dont` → `don t`); an identifier's whole form stays as written.

import { stemEnglish } from "./english-stem.ts";
import { americanSpelling, wordForm } from "./word-forms.ts";

/** Runs of letters, digits and the characters that glue identifiers and paths together. */
const CANDIDATE_AT = /[\p{L}\p{N}\p{M}_./\\-]+/uy;
/** CANDIDATE's ASCII characters (1) and the others (0), by character code. */
const WORD_CHAR = Uint8Array.from({ length: 128 }, (_, code) =>
  /[A-Za-z0-9_./\\-]/.test(String.fromCharCode(code)) ? 1 : 0,
);
const PLAIN_WORD = /^[a-z0-9]+$/;
/**
 * One word the identifier rules leave whole (no separator inside, at most a leading capital, or all capitals, and
 * ASCII): its only token is itself lower-cased and stemmed. Most prose words (`The`, `done.`, `HTTP`) take this path.
 */
const SIMPLE_WORD = /^[._/\\-]*([A-Z]?[a-z0-9]*|[A-Z]+)[._/\\-]*$/;
const EDGE_SEPARATORS = /^[._/\\-]+|[._/\\-]+$/g;
const PATH_SEPARATORS = /[./\\-]+/;
/** Longer tokens are base64, minified code or hashes of hashes: noise to a search. */
const MAX_TOKEN_CHARS = 64;

/**
 * A word's tokens, remembered: text repeats its words (Zipf), and splitting and stemming are most of indexing's
 * CPU. Bounded: cleared when full, so memory stays flat over a 10,000-session build.
 */
const wordTokens = new Map<string, string>();
const WORD_CACHE_LIMIT = 100_000;
/** Longer words (base64, minified code) rarely repeat: not remembered. */
const CACHED_WORD_CHARS = 4 * MAX_TOKEN_CHARS;

/** Lower-cased tokens separated by single spaces; "" for text without letters or digits. */
export function tokenizeForSearch(text: string): string {
  // The words are CANDIDATE's matches, found by a scan of the character codes (most text is ASCII; the regex
  // takes over at a non-ASCII character): this loop is most of indexing's CPU, and `text.match` cost twice as much.
  const out: string[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    let code = text.charCodeAt(at);
    if (code < 128 && WORD_CHAR[code] === 0) {
      at += 1;
      continue;
    }
    const start = at;
    while (code < 128 && WORD_CHAR[code] === 1 && ++at < length) code = text.charCodeAt(at);
    let word: string;
    if (at < length && code >= 128) {
      // A non-ASCII character in or at the start of this word: the regex reads it (letters of any script).
      CANDIDATE_AT.lastIndex = start;
      const match = CANDIDATE_AT.exec(text);
      if (match === null) {
        at = start + 1;
        continue;
      }
      word = match[0];
      at = CANDIDATE_AT.lastIndex;
    } else word = text.slice(start, at);
    let tokens = wordTokens.get(word);
    if (tokens === undefined) {
      tokens = tokenizeWord(word);
      if (word.length <= CACHED_WORD_CHARS) {
        if (wordTokens.size >= WORD_CACHE_LIMIT) wordTokens.clear();
        wordTokens.set(detached(word), detached(tokens));
      }
    }
    if (tokens !== "") out.push(tokens);
  }
  return out.join(" ");
}

/**
 * A copy of `text` that does not point into the string it was cut from: a matched word (and its stem) is a slice
 * of the whole chunk text and, remembered as it is, would keep that text alive. Concatenating then slicing makes
 * V8 flatten into new storage.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

function tokenizeWord(word: string): string {
  // Most words are plain lower-case prose: nothing to split.
  if (PLAIN_WORD.test(word)) return stemmedForms(word);
  const simple = SIMPLE_WORD.exec(word);
  if (simple !== null) return stemmedForms((simple[1] ?? "").toLowerCase());
  const tokens: string[] = [];
  const candidate = word.replace(EDGE_SEPARATORS, "");
  if (candidate === "") return "";
  const segments = candidate.split(PATH_SEPARATORS).filter((segment) => segment !== "");
  if (segments.length > 1) push(tokens, stemEnglish(segments.join("").replaceAll("_", "").toLowerCase()));
  for (const segment of segments) pushIdentifier(tokens, segment);
  return tokens.join(" ");
}

/** A lower-case word's tokens: itself stemmed, or its other form's words (./word-forms.ts), each stemmed. */
function stemmedForms(word: string): string {
  const form = wordForm(word);
  if (form === undefined) return tokenOf(stemEnglish(word));
  const tokens: string[] = [];
  for (const part of form.split(" ")) push(tokens, stemEnglish(part));
  return tokens.join(" ");
}

/** `snake_case_name` / `camelCaseName` / `HTTPServer2`: the whole (lower-cased, no `_`), then its words. */
function pushIdentifier(tokens: string[], identifier: string): void {
  const words = identifier
    .split("_")
    .flatMap((part) => splitCamelCase(part))
    .map((word) => word.toLowerCase())
    .filter((word) => word !== "");
  // The whole of several words as written; each word in American spelling (word-forms.ts).
  if (words.length > 1) push(tokens, stemEnglish(words.join("")));
  for (const word of words) push(tokens, stemEnglish(americanSpelling(word)));
}

const LOWER_UPPER = /(\p{Ll}|\p{N})(\p{Lu})/gu;
const UPPER_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const NON_ASCII = /[\u0080-\uffff]/;
const ASCII_CAPITAL = /[A-Z]/;
const ASCII_LOWER_UPPER = /([a-z0-9])([A-Z])/g;
const ASCII_UPPER_WORD = /([A-Z])([A-Z][a-z])/g;

/** `parseTranscriptLine` → parse, Transcript, Line; `HTTPServer` → HTTP, Server; digits stay with their word. ASCII
 *  words (most) take the ASCII expressions, which split them the same and run several times faster; a word without a
 *  capital is not split. */
export function splitCamelCase(word: string): string[] {
  if (!NON_ASCII.test(word)) {
    if (!ASCII_CAPITAL.test(word)) return [word];
    return word.replace(ASCII_LOWER_UPPER, "$1 $2").replace(ASCII_UPPER_WORD, "$1 $2").split(" ");
  }
  return word.replace(LOWER_UPPER, "$1 $2").replace(UPPER_WORD, "$1 $2").split(" ");
}

/** The token alone, or "" when it is empty or too long (as push keeps it). */
function tokenOf(token: string): string {
  return token.length > 0 && token.length <= MAX_TOKEN_CHARS ? token : "";
}

function push(tokens: string[], token: string): void {
  if (tokenOf(token) !== "") tokens.push(token);
}
