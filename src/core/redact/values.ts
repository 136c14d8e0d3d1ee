// What the redaction rules share: the candidate span they report, their precedence, and the tests on a value
// (is it a placeholder from documentation, does it look random enough to be a credential).

export interface SecretSpan {
  kind: string;
  start: number;
  end: number;
  /** Lower wins when spans overlap: the most specific rule names the merged span. */
  priority: number;
}

export const PRIORITY = { privateKey: 0, vendor: 1, jwt: 2, url: 3, header: 4, named: 5, entropy: 6 } as const;

export const MARKER_PREFIX = "[REDACTED:";

const MASKED = /^(?:[*xX•.#_-]+|<[^>]*>|\.\.\..*)$/;
const TEMPLATE = /\$\{|\{\{|#\{|%\(|%s|^\$|^%[A-Za-z_]+%$/;
/** Documentation values: `your-api-key-here`, `my-secret`, `changeme`, `sk-xxxx`. */
const PLACEHOLDER_WORDS =
  /(?:^|[^A-Za-z])your(?:[^a-z]|$)|^my[-_]|example|placeholder|replace[-_]?me|change[-_]?me|dummy|xxxx|\*\*\*/i;
const PLACEHOLDER_EXACT = new Set(
  "password passwd pass pwd pw secret token apikey api_key key value foo bar baz qux xyz abc 123 1234 sample test".split(
    " ",
  ),
);

/** A value that stands for a secret without being one: masked, templated, a marker, or a documentation word. */
export function isPlaceholderValue(value: string): boolean {
  return (
    value.includes(MARKER_PREFIX) ||
    MASKED.test(value) ||
    TEMPLATE.test(value) ||
    PLACEHOLDER_WORDS.test(value) ||
    PLACEHOLDER_EXACT.has(value.toLowerCase())
  );
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Whether a token of 20+ characters looks random enough to be a credential. Calibrated on random strings (the 1st
 * percentile of random 20-character alphanumerics is 3.65 bits, of 20 hex digits 2.9) against the identifiers, paths
 * and ids in the real transcripts. Mixed-case identifiers with a version number (`getTokenCountForMessages2`) are
 * told apart by their words: at least half the text in lower-case words of 3+ letters and a single run of digits,
 * which rejects 1.7% of random 20-character tokens and under 0.3% from 32 characters on.
 */
export function looksLikeRandomSecret(token: string): boolean {
  if (token.length < 20 || !/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  if (/^[0-9a-f-]+$/.test(token) || /^[0-9A-F-]+$/.test(token)) {
    return shannonEntropy(token.replaceAll("-", "")) >= 3.0;
  }
  if (/[A-Z]/.test(token) && /[a-z]/.test(token)) return !looksLikeIdentifier(token) && shannonEntropy(token) >= 3.5;
  return (token.match(/[-_/]/g)?.length ?? 0) <= 1 && shannonEntropy(token) >= 3.7;
}

function looksLikeIdentifier(token: string): boolean {
  const wordLetters = (token.match(/[A-Z]?[a-z]{3,}/g) ?? []).join("").length;
  return wordLetters * 2 >= token.length && (token.match(/\d+/g)?.length ?? 0) <= 1;
}
