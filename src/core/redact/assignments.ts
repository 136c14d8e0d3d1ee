// Secrets found by the name they are given: `.env`/shell/JSON/YAML/code assignments to secret names (names.ts),
// and high-entropy strings right after such names in prose or on a command line.
//
// Why heuristics on the value: code assigns expressions, not secrets (`api_key: anthropic_api_key()`,
// `token: csrfToken`, `password: string`), so a bare identifier only counts where the syntax says it is a literal
// (`.env` lines, flags, `;`-separated connection strings, a YAML value ending its line).

import { classifySecretName, type SecretNameFamily, splitNameWords } from "./names.ts";
import { isPlaceholderValue, looksLikeRandomSecret, PRIORITY, type SecretSpan } from "./values.ts";

// A name ends at one of these words (any case), not followed by more of the name; `_base` may follow a key or secret,
// `_id` a key (`private_key_id`; names.ts decides which key ids are secrets).
const NAME_END =
  /(?:pass(?:word|wd|phrase)?|pwd|secret|token|key(?:[_-]?id)?|credentials?|auth(?:orization)?)(?:[_-]?base)?(?![A-Za-z0-9_])/gi;
const SEPARATOR = /([ \t]*)(=>|:=|={1,3}|:(?!\/\/))([ \t]*)/y;
const TYPE_ANNOTATION_THEN_VALUE = /[ \t]*=(?!=)[ \t]*/y;
const LOOSE_GAP = /(?:\\*["'`])?[ \t]*(?:(?:is|was|are|equals|of|for|to)[ \t]+|(?:=>|:=|[=:(,])[ \t]*)?(?:\\*["'`])?/y;
const CANDIDATE = /[A-Za-z0-9+/_~=-]{20,256}(?![A-Za-z0-9+/_~=-])/y;

const isNameChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;

/** Appends assignments to secret names and high-entropy strings next to them (original offsets) to `out`. */
export function findNamedSecrets(text: string, out: SecretSpan[]): void {
  NAME_END.lastIndex = 0;
  for (let match = NAME_END.exec(text); match !== null; match = NAME_END.exec(text)) {
    const keywordEnd = match.index + match[0].length;
    const after = text.charCodeAt(keywordEnd);
    if ((after === 45 || after === 46) && /[A-Za-z]/.test(text.charAt(keywordEnd + 1))) continue; // `api-key-id`
    const name = readNameBackwards(text, match.index, keywordEnd);
    const family = classifySecretName(name.text, wordBefore(text, name.start));
    if (family === null) continue;
    const span = readAssignment(text, name, keywordEnd, family) ?? readNearbyRandomToken(text, keywordEnd);
    if (span === null) continue;
    out.push(span);
    NAME_END.lastIndex = Math.max(NAME_END.lastIndex, span.end); // a name inside a redacted value is part of it
  }
}

interface Name {
  text: string;
  start: number;
  isFlag: boolean;
}

function readNameBackwards(text: string, keywordStart: number, keywordEnd: number): Name {
  let start = keywordStart;
  while (start > 0 && keywordEnd - start < 100 && isNameChar(text.charCodeAt(start - 1))) start -= 1;
  // `\nAPI_KEY=` in JSON-escaped text: the `n` belongs to the escape, not to the name.
  if (start > 0 && text.charCodeAt(start - 1) === 92 && /[nrt]/.test(text.charAt(start))) start += 1;
  let bodyStart = start;
  while (bodyStart < keywordStart && /[-.]/.test(text.charAt(bodyStart))) bodyStart += 1;
  return { text: text.slice(bodyStart, keywordEnd), start, isFlag: text.startsWith("-", start) };
}

/** The word before a one-word name, separated by one space: "api key", "GitHub token". */
function wordBefore(text: string, nameStart: number): string | undefined {
  if (text.charCodeAt(nameStart - 1) !== 32) return undefined;
  return /([A-Za-z]+)$/.exec(text.slice(Math.max(0, nameStart - 24), nameStart - 1))?.[1];
}

function readAssignment(text: string, name: Name, keywordEnd: number, family: SecretNameFamily): SecretSpan | null {
  const afterQuote = skipQuote(text, keywordEnd);
  SEPARATOR.lastIndex = afterQuote;
  const separator = SEPARATOR.exec(text);
  let valueAt: number;
  if (separator !== null) valueAt = SEPARATOR.lastIndex;
  else if (name.isFlag && /^[ \t]+\S/.test(text.slice(keywordEnd, keywordEnd + 2))) valueAt = keywordEnd + 1;
  else return null;
  let value = readValue(text, valueAt);
  if (value !== null && !value.quoted && isIdentifier(value.text)) {
    // `token: string = "…"`: skip the type annotation.
    TYPE_ANNOTATION_THEN_VALUE.lastIndex = value.end;
    if (TYPE_ANNOTATION_THEN_VALUE.test(text)) value = readValue(text, TYPE_ANNOTATION_THEN_VALUE.lastIndex) ?? value;
  }
  if (value === null || !isSecretLiteral(text, name, separator?.[0] ?? " ", value, family)) return null;
  const kind = refineKind(family === "password" ? "password" : "secret", name.text, value.text, text, name.start);
  return { kind, start: value.start, end: value.end, priority: PRIORITY.named };
}

function readNearbyRandomToken(text: string, keywordEnd: number): SecretSpan | null {
  LOOSE_GAP.lastIndex = keywordEnd;
  LOOSE_GAP.test(text);
  const start = LOOSE_GAP.lastIndex;
  if (start === keywordEnd || start - keywordEnd > 16) return null;
  CANDIDATE.lastIndex = start;
  const candidate = CANDIDATE.exec(text)?.[0];
  if (candidate === undefined || !looksLikeRandomSecret(candidate)) return null;
  const kind = refineKind("high-entropy", "", candidate, text, keywordEnd);
  return { kind, start, end: start + candidate.length, priority: PRIORITY.entropy };
}

/** A 40-character base64 value named or described as an AWS secret is reported as one. */
function refineKind(kind: string, name: string, value: string, text: string, at: number): string {
  if (!/^[A-Za-z0-9/+]{40}$/.test(value)) return kind;
  const words = splitNameWords(name);
  if (words.includes("secret") && (words.includes("access") || words.includes("aws"))) return "aws-secret-access-key";
  const before = text.slice(Math.max(0, at - 200), at);
  const aboutAws = /\baws\b/i.test(before) || /AKIA|ASIA/.test(before);
  return aboutAws && /secret/i.test(before) ? "aws-secret-access-key" : kind;
}

interface Value {
  text: string;
  start: number;
  end: number;
  quoted: boolean;
}

/** A closing quote right after a name (`"apiKey":`, `\"token\":`, `'secret' =>`). */
function skipQuote(text: string, at: number): number {
  let p = at;
  while (text.charCodeAt(p) === 92 && p - at < 4) p += 1;
  return /["'`]/.test(text.charAt(p)) ? p + 1 : at;
}

const MAX_VALUE = 1024;
/**
 * An unquoted value runs to whitespace, a quote or punctuation that ends it, or a JSON escape (`\n`, `\"`, and the
 * doubly escaped `\\n` of JSON inside JSON).
 */
const BARE_VALUE = /(?:[^\s"'`,;)\]}<>&|\\]|\\+(?![\\nrt"'`])){1,512}/y;

function readValue(text: string, at: number): Value | null {
  let p = at;
  while (text.charCodeAt(p) === 92 && p - at < 4) p += 1;
  const quote = text.charAt(p);
  if (quote === '"' || quote === "'" || quote === "`") {
    const start = p + 1;
    const end =
      p === at ? findClosingQuote(text, start, quote) : findEscapedClosingQuote(text, start, text.slice(at, p + 1));
    return end < 0 ? null : { text: text.slice(start, end), start, end, quoted: true };
  }
  if (p !== at) return null;
  BARE_VALUE.lastIndex = at;
  const bare = BARE_VALUE.exec(text)?.[0];
  return bare === undefined ? null : { text: bare, start: at, end: at + bare.length, quoted: false };
}

function findClosingQuote(text: string, from: number, quote: string): number {
  for (let p = from; p < text.length && p - from < MAX_VALUE; p += 1) {
    const c = text.charAt(p);
    if (c === "\\") p += 1;
    else if (c === quote) return p;
    else if (c === "\n") return -1;
  }
  return -1;
}

function findEscapedClosingQuote(text: string, from: number, closing: string): number {
  const window = text.slice(from, from + MAX_VALUE + closing.length);
  const end = window.indexOf(closing);
  return end < 0 || window.slice(0, end).includes("\n") ? -1 : from + end;
}

const isIdentifier = (value: string): boolean => /^[A-Za-z_$][\w$]*$/.test(value);
const MEMBER_ACCESS = /^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)+$/;
/** Type names after `name:` (`password: str`, `token: string;`) are annotations, not values. */
const TYPE_NAMES = new Set(
  "str string int integer number float bool boolean bytes any unknown object dict list char text uuid secretstr".split(
    " ",
  ),
);
const NOT_A_VALUE = new Set(["true", "false", "null", "nil", "none", "undefined", "yes", "no", "on", "off"]);

function isSecretLiteral(text: string, name: Name, separator: string, value: Value, family: SecretNameFamily): boolean {
  const v = value.text;
  if (v.length === 0 || isPlaceholderValue(v)) return false;
  if (name.text.toLowerCase().endsWith("pwd") && /^(?:[/~]|[A-Za-z]:\\)/.test(v)) return false; // a working directory
  if (VERSION.test(v)) return false; // `"pbkdf2-password": "1.2.1"` in package.json
  if (value.quoted) {
    if (family === "password") return true;
    // Without a digit, a value is a label (`"io.example/related-task"`, `"_rollupAnnotations"`) unless it is long
    // and random-looking; phrases and words are never credentials.
    if (v.length < 8 || /\s/.test(v)) return false;
    return /\d/.test(v) ? !/^[A-Z][A-Z0-9_]*[A-Z]$/.test(v) : v.length >= 20 && looksLikeRandomLetters(v);
  }
  if (v.length < 4 || !/[A-Za-z0-9]{2}/.test(v) || v.startsWith("/*") || v.startsWith("//")) return false;
  if (NOT_A_VALUE.has(v.toLowerCase()) || NUMBER.test(v)) return false;
  if (/[([{]|^[!@&*]/.test(v)) return false; // a call, an index, a YAML tag or alias
  if (MEMBER_ACCESS.test(v) && !/\d/.test(v)) return false; // `config.apiKey`, `options?.token`
  // An identifier is a variable or a type (`T2`, `csrfToken`) unless the syntax says it is a literal.
  if (isIdentifier(v) && (!/\d/.test(v) || v.length < 6)) {
    return !TYPE_NAMES.has(v.toLowerCase()) && isLiteralContext(text, name, separator, value);
  }
  return true;
}

const VERSION = /^[~^>=<]*v?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?$/;
const NUMBER = /^(?:0x[0-9a-fA-F]+|\d[\d_.]*)$/;

/** Long random text that happens to have no digit: mixed case, and not made of words. */
function looksLikeRandomLetters(value: string): boolean {
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value)) return false;
  const wordLetters = (value.match(/[A-Z]?[a-z]{3,}|[A-Z]{4,}/g) ?? []).join("").length;
  return wordLetters * 2 < value.length;
}

// A line start, also inside JSON-escaped text and after the `   12→` line numbers of Claude Code's Read results.
const LINE_START =
  /(?:^|\n|\\n|\\r)(?:[ \t]*\d+→)?[ \t]*(?:(?:export|set|ENV|ARG|declare|readonly|local|-e|--env|-)[ \t]+)?$/;

/**
 * Where the syntax makes a bare word a literal: `.env`/shell lines, CLI flags, connection strings (`;Password=x;`,
 * capitalised, unlike minified code), query strings, a YAML value ending its line (a camelCase word there is the
 * last property of a JavaScript object: `refresh_token: refreshToken`).
 */
function isLiteralContext(text: string, name: Name, separator: string, value: Value): boolean {
  if (name.isFlag || (separator === "=" && /^[A-Z][A-Z0-9_]*$/.test(name.text))) return true;
  const previous = text.charAt(name.start - 1);
  if (separator === "=" && previous === ";") return /^[A-Z]/.test(name.text);
  if (separator === "=" && (previous === "?" || previous === "&"))
    return /^(?:$|[&#\s"'])/.test(text.charAt(value.end));
  const from = Math.max(0, name.start - 40);
  if (!LINE_START.test((from === 0 ? "" : "\u0000") + text.slice(from, name.start))) return false;
  if (separator === "=") return true;
  return (
    /^[ \t]*:[ \t]*$/.test(separator) &&
    !/[a-z][A-Z]/.test(value.text) &&
    /^(?:$|\r?\n|\\n|\\r|[ \t]+#)/.test(text.slice(value.end, value.end + 3))
  );
}
