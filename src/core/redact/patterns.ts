// The secrets recognised by their shape or their syntax: vendor token formats, private key blocks, JWTs, passwords in
// URLs and on command lines (docker login, mysql -p, curl -u, .netrc), Azure connection-string keys, Authorization
// headers. Each rule yields candidate spans; `redact.ts` merges them with the name-based ones.
//
// Performance and safety: patterns start with a literal where they can (irregexp then scans at GB/s; a pattern that
// cannot has a literal `trigger` checked first), and every pattern is linear: a look-behind makes each run of token
// characters start at most one attempt, and every repetition is bounded, so no input makes a pattern backtrack long.

import { COMMAND_LINE_PASSWORD_RULES, PROSE_AND_FILE_PASSWORD_RULES } from "./password-rules.ts";
import {
  decodesToUserAndPassword,
  followsUrlScheme,
  hasUpperLowerDigit,
  looksLikeCredential,
  notPlaceholder,
  type PatternRule,
  vendor,
} from "./pattern-rule.ts";
import { PRIORITY, type SecretSpan } from "./values.ts";
import { VENDOR_RULES } from "./vendor-rules.ts";

export type { SecretSpan };

export const PATTERN_RULES: readonly PatternRule[] = [
  vendor("aws-access-key-id", /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g),
  // A secret access key has no prefix: it counts when it sits right after an access key id (credentials CSV, pasted pairs).
  vendor(
    "aws-secret-access-key",
    /((?:AKIA|ASIA)[A-Z0-9]{16}(?:[\s,;:|="'`]|\\[nrt"]){1,12})([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    hasUpperLowerDigit,
  ),
  vendor("gcp-api-key", /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g),
  vendor("gcp-oauth-client-secret", /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{20,64}/g),
  vendor("gcp-access-token", /(?<![A-Za-z0-9_.-])ya29\.[0-9A-Za-z_-]{20,2048}/g),
  vendor("azure-storage-key", /(AccountKey=)([A-Za-z0-9+/]{20,200}={0,2})/g),
  vendor("azure-shared-access-key", /(SharedAccessKey=)([A-Za-z0-9+/]{20,200}={0,2})/g),
  // SAS tokens: the signature is the secret; the rest of the query (sv, se, sp, ...) describes it.
  vendor("azure-sas-signature", /([?&;]sig=)((?:[A-Za-z0-9+/]|%2[bBfF]){30,200}(?:=|%3[dD]){0,2})/g),
  {
    kind: "azure-client-secret",
    priority: PRIORITY.vendor,
    trigger: "Q~",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  },
  vendor("github-token", /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9])/g),
  vendor("github-token", /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{50,244}(?![A-Za-z0-9_])/g),
  vendor(
    "gitlab-token",
    /(?<![A-Za-z0-9_-])gl(?:pat|ptt|dt|rt|soat|cbt|ft|imt|oas)-[A-Za-z0-9_-]{20,200}(?:\.[A-Za-z0-9_-]{2,100}){0,3}/g,
  ),
  vendor("slack-token", /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,250}/g),
  vendor("slack-token", /(?<![A-Za-z0-9_-])xapp-\d-[A-Z0-9]{6,32}-\d{6,20}-[A-Za-z0-9]{20,100}/g),
  vendor(
    "slack-webhook",
    /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)(T[A-Z0-9]{6,20}\/[A-Z0-9]{6,20}\/[A-Za-z0-9]{16,64})/g,
  ),
  vendor("stripe-key", /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}/g),
  vendor("stripe-webhook-secret", /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/=]{24,128}/g),
  vendor("anthropic-api-key", /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,300}/g),
  // Project, service-account and admin keys carry their kind in the prefix; legacy user keys are `sk-` + 48 letters/digits.
  vendor("openai-api-key", /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,300}/g),
  vendor("openai-api-key", /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{32,200}(?![A-Za-z0-9_-])/g, (s) => /\d/.test(s)),
  vendor("huggingface-token", /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,60}(?![A-Za-z0-9])/g),
  vendor("npm-token", /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g),
  vendor("pypi-token", /(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,300}/g),
  vendor("sendgrid-api-key", /(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{39,50}/g),
  vendor("digitalocean-token", /(?<![A-Za-z0-9_])do[por]?_v1_[a-f0-9]{64}/g),
  ...VENDOR_RULES,
  {
    kind: "jwt",
    priority: PRIORITY.jwt,
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,4096}\.[A-Za-z0-9_-]{10,16384}\.[A-Za-z0-9_-]{0,4096}/g,
  },
  // scheme://user:password@host keeps the scheme, user and host. Scheme check in code: a regex starting with the
  // scheme would try every word in the text.
  {
    kind: "password",
    priority: PRIORITY.url,
    pattern: /(:\/\/[^\s:/?#@"'`<>\\[\]]{0,256}:)([^\s/?#@"'`<>\\]{1,512})(?=@)/g,
    accept: (secret, text, at) => notPlaceholder(secret) && followsUrlScheme(text, at),
  },
  // Passwords on command lines and in .netrc, where the syntax (not a `name=` assignment) marks the value.
  ...[
    /(\b(?:docker|podman|nerdctl|oras|skopeo|helm registry) login\b[^\n|;&]{0,200}?[ \t](?:-p|--password)[ \t=]+)([^\s"'`\\]+)/g,
    /(\bmysql(?:dump|admin|sh|import|check|show|slap)?\b[^\n|;&]{0,200}?[ \t]-p(?:\\{0,3}["'])?)([^\s"'`\\-][^\s"'`\\]*)/g,
    /(\bcurl\b[^\n|;&]{0,300}?[ \t](?:-u|--user)[ \t=]+["']?[^\s:"'`\\]{1,100}:)([^\s"'`\\@]+)/g,
    // .netrc: `login x password y`, on one line or one per line (real or JSON-escaped breaks).
    /(\b(?:login|user)[ \t]+\S{1,100}(?:[ \t]+|[ \t]*(?:\r?\n|\\{1,4}n)[ \t]*)password[ \t]+)([^\s"'`\\]+)/g,
  ].map((pattern): PatternRule => ({ kind: "password", priority: PRIORITY.header, pattern, accept: notPlaceholder })),
  ...COMMAND_LINE_PASSWORD_RULES,
  ...PROSE_AND_FILE_PASSWORD_RULES,
  {
    kind: "bearer-token",
    priority: PRIORITY.header,
    trigger: "earer",
    pattern: /((?<![A-Za-z0-9_-])[Bb]earer[ \t]+)([A-Za-z0-9._~+/-]{12,4096}=*)(?![A-Za-z0-9._~+/=-])/g,
    accept: looksLikeCredential,
  },
  {
    kind: "basic-auth",
    priority: PRIORITY.header,
    trigger: "asic",
    pattern: /((?<![A-Za-z0-9_-])[Bb]asic[ \t]+)([A-Za-z0-9+/]{8,1024}={0,2})(?![A-Za-z0-9+/=])/g,
    accept: (s) => looksLikeCredential(s) && decodesToUserAndPassword(s),
  },
];

const PRIVATE_KEY_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /(?:\s|\\{1,4}[nr]){0,16}-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
const LINE_BREAK = String.raw`(?:\r?\n|(?:\\{1,4}r)?\\{1,4}n)[ \t]*`;
/**
 * The body of a key block: optional `Name: value` headers and their blank line (PGP, encrypted PEM), then base64,
 * in lines (real or JSON-escaped breaks) or all on one line. It stops at a blank line or anything that is not base64,
 * and never backtracks (nothing follows it in the pattern), so a text full of BEGIN lines stays linear.
 */
const PRIVATE_KEY_BODY = new RegExp(
  String.raw`(?:(?:${LINE_BREAK}[A-Za-z-]{1,40}: [^\r\n\\]{0,200}){1,8}${LINE_BREAK})?(?:(?:${LINE_BREAK})?[A-Za-z0-9+/=]{1,4096}){0,400}`,
  "y",
);
/** A header with less body than this is code or prose that mentions key blocks, not a key. */
const MIN_BODY_CHARS = 32;

/** PEM/OpenSSH/PGP private key blocks, header to footer; a block cut short (no END line) ends with its body. */
export function findPrivateKeys(text: string, out: SecretSpan[]): void {
  if (!text.includes("PRIVATE KEY")) return;
  PRIVATE_KEY_BEGIN.lastIndex = 0;
  for (let begin = PRIVATE_KEY_BEGIN.exec(text); begin !== null; begin = PRIVATE_KEY_BEGIN.exec(text)) {
    const headerEnd = begin.index + begin[0].length;
    PRIVATE_KEY_BODY.lastIndex = headerEnd;
    PRIVATE_KEY_BODY.test(text);
    const bodyEnd = PRIVATE_KEY_BODY.lastIndex;
    if (text.slice(headerEnd, bodyEnd).replace(/\s|\\+[nr]/g, "").length < MIN_BODY_CHARS) continue;
    PRIVATE_KEY_END.lastIndex = bodyEnd;
    const end = PRIVATE_KEY_END.test(text) ? PRIVATE_KEY_END.lastIndex : bodyEnd;
    out.push({ kind: "private-key", start: begin.index, end, priority: PRIORITY.privateKey });
    PRIVATE_KEY_BEGIN.lastIndex = end;
  }
}

/**
 * The rules that are a bare global regex (no trigger, no context group) are vendor tokens: one run of
 * token characters of 15 or more. They run as one alternation, and only over such runs, found by probing every 15th
 * character: one pass over a fraction of the text instead of one pass per rule. A match names its rule by the group
 * that took part. Every one of these patterns starts and ends at a run boundary or inside a run (their look-arounds
 * exclude fewer characters than TOKEN_CHARS holds, and each starts with a look-behind refusing a letter or digit),
 * so a run gives the matches the whole text would.
 */
const COMBINED_RULES = PATTERN_RULES.filter(
  (rule) => isCombinable(rule, 0) && rule.pattern.source.startsWith("(?<![A-Za-z0-9"),
);
// Every one of them starts after a character that is not a letter or digit: checking that once up front lets a long
// run (a base64 image) cost one test per character rather than one per rule and character.
const COMBINED = new RegExp(
  `(?<![A-Za-z0-9])(?:${COMBINED_RULES.map((rule) => `(${rule.pattern.source})`).join("|")})`,
  "g",
);
/**
 * The rules with a context group and a secret group (command lines, URLs, connection strings) run as one alternation
 * over the whole text. After a match the scan resumes one character later, so a match of one rule never hides
 * another's that starts inside it (each of these patterns starts at a literal, so none matches twice).
 */
const SYNTAX_RULES = PATTERN_RULES.filter((rule) => isCombinable(rule, 2));
const SYNTAX = new RegExp(SYNTAX_RULES.map((rule) => `(?:${rule.pattern.source})`).join("|"), "g");
const SEPARATE_RULES = PATTERN_RULES.filter((rule) => !COMBINED_RULES.includes(rule) && !SYNTAX_RULES.includes(rule));
const MIN_TOKEN_CHARS = 15;
const TOKEN_CHARS = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+/=-")
  TOKEN_CHARS[c.charCodeAt(0)] = 1;
const isTokenCharAt = (text: string, at: number): boolean => TOKEN_CHARS[text.charCodeAt(at)] === 1;

function isCombinable(rule: PatternRule, groups: number): boolean {
  return (
    rule.trigger === undefined && countCapturingGroups(rule.pattern.source) === groups && rule.pattern.flags === "g"
  );
}

/**
 * The capturing groups in a regex's source: `(` and `(?<name>`, not escaped, not in a character class, not `(?:`,
 * `(?=`, `(?!`, `(?<=`, `(?<!`. A scan of the text instead of compiling each rule once more at start-up (tested
 * against the compiled count for every rule).
 */
export function countCapturingGroups(source: string): number {
  let count = 0;
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === "\\") {
      at += 1;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "(") {
      if (source[at + 1] !== "?") count += 1;
      else if (source[at + 2] === "<" && source[at + 3] !== "=" && source[at + 3] !== "!") count += 1;
    }
  }
  return count;
}

function findSyntaxSecrets(text: string, out: SecretSpan[]): void {
  SYNTAX.lastIndex = 0;
  for (let match = SYNTAX.exec(text); match !== null; match = SYNTAX.exec(text)) {
    SYNTAX.lastIndex = match.index + 1;
    const group = match.findIndex((value, index) => index > 0 && value !== undefined);
    const rule = SYNTAX_RULES[(group - 1) / 2];
    if (rule === undefined) continue;
    const context = match[group] ?? "";
    const secret = match[group + 1] ?? "";
    const start = match.index + context.length;
    if (rule.accept !== undefined && !rule.accept(secret, text, match.index, start)) continue;
    out.push({ kind: rule.kind, start, end: start + secret.length, priority: rule.priority });
  }
}

function findTokenSecrets(text: string, out: SecretSpan[]): void {
  let probe = MIN_TOKEN_CHARS - 1;
  while (probe < text.length) {
    if (!isTokenCharAt(text, probe)) {
      probe += MIN_TOKEN_CHARS;
      continue;
    }
    let start = probe;
    while (start > 0 && isTokenCharAt(text, start - 1)) start -= 1;
    let end = probe + 1;
    while (end < text.length && isTokenCharAt(text, end)) end += 1;
    probe = end + MIN_TOKEN_CHARS;
    if (end - start >= MIN_TOKEN_CHARS) findCombinedSecrets(text.slice(start, end), start, out);
  }
}

function findCombinedSecrets(run: string, offset: number, out: SecretSpan[]): void {
  COMBINED.lastIndex = 0;
  for (let match = COMBINED.exec(run); match !== null; match = COMBINED.exec(run)) {
    const rule = COMBINED_RULES[match.findIndex((group, index) => index > 0 && group !== undefined) - 1];
    if (rule === undefined) continue;
    const secret = match[0];
    if (rule.accept !== undefined && !rule.accept(secret, run, match.index, match.index)) continue;
    const start = offset + match.index;
    out.push({ kind: rule.kind, start, end: start + secret.length, priority: rule.priority });
  }
}

/** Runs every shape rule over the text, appending candidate spans (original offsets) to `out`. */
export function findPatternSecrets(text: string, out: SecretSpan[]): void {
  findPrivateKeys(text, out);
  findTokenSecrets(text, out);
  findSyntaxSecrets(text, out);
  for (const rule of SEPARATE_RULES) {
    if (rule.trigger !== undefined && !text.includes(rule.trigger)) continue;
    const { pattern } = rule;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const context = match.length > 2 ? (match[1] ?? "") : "";
      const secret = match.length > 2 ? (match[2] ?? "") : match[0];
      const start = match.index + context.length;
      if (rule.accept !== undefined && !rule.accept(secret, text, match.index, start)) continue;
      out.push({ kind: rule.kind, start, end: start + secret.length, priority: rule.priority });
    }
  }
}
