// What a shape rule is (a kind, a precedence, a linear global regex, an optional check on the secret) and the checks
// the rule tables share. Rule tables: patterns.ts (the first ones), vendor-rules.ts, password-rules.ts.

import { isPlaceholderValue, PRIORITY } from "./values.ts";

export interface PatternRule {
  kind: string;
  priority: number;
  /** When set, the rule runs only if the text contains it: for patterns that do not start with a literal. */
  trigger?: string;
  /** Global regex. With two groups, group 1 is context kept in the text and group 2 (right after it) is the secret. */
  pattern: RegExp;
  /** Extra check on the secret text, for what a regex says poorly. */
  accept?: (secret: string, text: string, matchIndex: number, secretStart: number) => boolean;
}

export const hasUpperLowerDigit = (s: string): boolean => /[A-Z]/.test(s) && /[a-z]/.test(s) && /\d/.test(s);
/** `https://abc:xyz@example.com` in documentation: a placeholder or a password too short to be one. */
export const notPlaceholder = (s: string): boolean => s.length >= 3 && !isPlaceholderValue(s);
/** Documentation keys (a vendor prefix, then a row of x) repeat one character; random ones practically never do 8 times. */
export const notRepetitive = (s: string): boolean => !/(.)\1{7}/.test(s);
/** `Bearer`/`Basic` followed by a word from prose ("Bearer tokens") is not a credential: ask for a digit or mixed case. */
export const looksLikeCredential = (s: string): boolean =>
  /\d/.test(s) || (/[A-Z]/.test(s.slice(1)) && /[a-z]/.test(s));

/** `Basic` credentials are base64 of `user:password`; "Basic JavaScript" is not. */
export function decodesToUserAndPassword(encoded: string): boolean {
  try {
    return /^[ -9;-~\u00a0-\u00ff]*:[ -~\u00a0-\u00ff]*$/.test(atob(encoded)); // printable (Latin-1) user:password
  } catch {
    return false;
  }
}

export const vendor = (kind: string, pattern: RegExp, accept?: (s: string) => boolean): PatternRule => ({
  kind,
  priority: PRIORITY.vendor,
  pattern,
  accept: accept === undefined ? notRepetitive : (s) => notRepetitive(s) && accept(s),
});

const SCHEME_BEFORE = /(?:^|[^A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}$/;

/** `://` must follow a URL scheme (`postgres`, `https`, `git+ssh`), not any text. */
export function followsUrlScheme(text: string, at: number): boolean {
  return SCHEME_BEFORE.test(text.slice(Math.max(0, at - 33), at));
}
