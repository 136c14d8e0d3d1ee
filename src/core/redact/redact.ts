// Secret redaction, applied to everything ctx persists, injects, indexes or returns from a tool. Each secret becomes
// a typed marker (`[REDACTED:github-token]`); findings give the kind and the offsets in the original text. Pure,
// deterministic and idempotent: redacting redacted text changes nothing (markers are never secrets).
// The rules live in patterns.ts (shapes; more in vendor-rules.ts, password-rules.ts), assignments.ts (names and
// entropy) and encoded.ts (secrets inside base64); this merges them.

import { isPlainObject } from "../json/record.ts";
import { findNamedSecrets } from "./assignments.ts";
import { findEncodedSecrets } from "./encoded.ts";
import { classifySecretName } from "./names.ts";
import { findPatternSecrets, type SecretSpan } from "./patterns.ts";

export interface RedactionFinding {
  kind: string;
  /** Offsets in the original text, end exclusive. */
  start: number;
  end: number;
}

export interface RedactOptions {
  /** Exact strings that are never redacted (from config: a test fixture's fake key, a public demo token). */
  allowlist?: readonly string[];
}

export interface RedactedText {
  text: string;
  findings: RedactionFinding[];
}

/** The kind used by `redactValue` for a string under a key named like a secret (`password`, `apiKey`, `*_token`). */
export const SECRET_FIELD_KIND = "secret-field";

const MARKER = /^\[REDACTED:[a-z0-9-]+\]$/;

export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

export function isRedactionMarker(text: string): boolean {
  return MARKER.test(text);
}

/** Replaces every secret in `text` with its typed marker. */
export function redactText(text: string, options: RedactOptions = {}): RedactedText {
  const spans: SecretSpan[] = [];
  findPatternSecrets(text, spans);
  findNamedSecrets(text, spans);
  findEncodedSecrets(text, spans);
  if (spans.length === 0) return { text, findings: [] };
  const allowlist = options.allowlist ?? [];
  const kept =
    allowlist.length === 0 ? spans : spans.filter((span) => !allowlist.includes(text.slice(span.start, span.end)));
  const findings = mergeSpans(kept);
  if (findings.length === 0) return { text, findings };
  const parts: string[] = [];
  let at = 0;
  for (const finding of findings) {
    parts.push(text.slice(at, finding.start), redactionMarker(finding.kind));
    at = finding.end;
  }
  parts.push(text.slice(at));
  return { text: parts.join(""), findings };
}

/**
 * Overlapping spans become one finding covering all of them (so no piece of a secret survives between two rules),
 * named by the most specific rule: a GitHub token assigned to `GH_TOKEN` is a `github-token`, not a `secret`.
 */
function mergeSpans(spans: SecretSpan[]): RedactionFinding[] {
  const sorted = spans
    .filter((span) => span.end > span.start)
    .sort((a, b) => a.start - b.start || a.priority - b.priority);
  const findings: RedactionFinding[] = [];
  let current: SecretSpan | undefined;
  for (const span of sorted) {
    if (current !== undefined && span.start < current.end) {
      const kind = span.priority < current.priority ? span.kind : current.kind;
      current = {
        kind,
        start: current.start,
        end: Math.max(current.end, span.end),
        priority: Math.min(current.priority, span.priority),
      };
      continue;
    }
    if (current !== undefined) findings.push({ kind: current.kind, start: current.start, end: current.end });
    current = span;
  }
  if (current !== undefined) findings.push({ kind: current.kind, start: current.start, end: current.end });
  return findings;
}

/**
 * Redacts every string in JSON-like data (objects, arrays; numbers, booleans and null pass through). Keys are kept;
 * a non-empty string under a key named like a secret is replaced whole. The input is never mutated; subtrees with
 * nothing to redact are returned as they are (shared, not copied), so large clean values cost no allocation.
 */
export function redactValue<T>(value: T, options: RedactOptions = {}): { value: T; count: number } {
  const counter = { count: 0 };
  const redacted = walk(value, undefined, options, counter) as T;
  return { value: redacted, count: counter.count };
}

function walk(value: unknown, key: string | undefined, options: RedactOptions, counter: { count: number }): unknown {
  if (typeof value === "string") {
    if (key !== undefined && value.length > 0 && isSecretKey(key) && !isRedactionMarker(value)) {
      if (options.allowlist?.includes(value)) return value;
      counter.count += 1;
      return redactionMarker(SECRET_FIELD_KIND);
    }
    const result = redactText(value, options);
    counter.count += result.findings.length;
    return result.text;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const next = walk(item, undefined, options, counter);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (isPlainObject(value)) {
    let changed = false;
    const entries = Object.entries(value).map(([name, item]): [string, unknown] => {
      const next = walk(item, name, options, counter);
      if (next !== item) changed = true;
      return [name, next];
    });
    // fromEntries defines properties, so a `__proto__` key stays data instead of replacing the prototype.
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/** classifySecretName(key) !== null, remembered: a transcript repeats the same few dozen keys thousands of times. */
const secretKeys = new Map<string, boolean>();
const SECRET_KEYS_REMEMBERED = 4096;

function isSecretKey(key: string): boolean {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = classifySecretName(key) !== null;
    if (secretKeys.size >= SECRET_KEYS_REMEMBERED) secretKeys.clear();
    secretKeys.set(key, secret);
  }
  return secret;
}
