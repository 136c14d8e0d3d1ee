// Secrets wrapped in base64: a Kubernetes Secret's `data`, the output of `echo … | base64` (wrapped at 76 or 64
// columns), a `.dockerconfigjson`. A blob is decoded when it is standard padded base64 of a plausible length whose
// first bytes are printable text, and the whole blob is redacted when the decoded text holds a secret the other rules
// find there. Images, archives and certificates (binary once decoded) are dropped after decoding one probe of 72 bytes.
// A blob that is a private key body pasted without its BEGIN/END lines (key-body.ts decides from the decoded
// structure) is redacted as a `private-key`, up to the length its DER header gives.
//
// Cost: one linear scan for runs (probing every 24th character); each character is decoded at most once and the decoded text is scanned once
// (no decoding inside decoded text), so the total stays within about twice a plain scan. Blobs longer than
// MAX_BLOB_CHARS are skipped: a Secret's values and pasted credentials are far shorter.

import { findNamedSecrets } from "./assignments.ts";
import { PRIVATE_KEY_KIND, readPrivateKeyBody } from "./key-body.ts";
import { findPatternSecrets } from "./patterns.ts";
import { PRIORITY, type SecretSpan } from "./values.ts";

export const ENCODED_SECRET_KIND = "base64-secret";

/** 24 characters decode to 18 bytes: `password=hunter2` and an AWS key id (20 characters) are longer. */
const MIN_BLOB_CHARS = 24;
const MAX_BLOB_CHARS = 65_536;
const PROBE_CHARS = 96;
/** The widths `base64` (76), openssl and PEM (64) and OpenSSH private keys (70) wrap at. */
const WRAP_WIDTHS = new Set([64, 70, 76]);

/** A line break (real or JSON-escaped), indentation or the `   12→` line number of a Read result, then base64. */
const NEXT_LINE = /(?:\r?\n|\\{1,4}r\\{1,4}n|\\{1,4}n)[ \t]*(?:\d{1,9}\u2192[ \t]*)?([A-Za-z0-9+/]{1,76}={0,2})/y;
const PRINTABLE = /^[\t\n\r\x20-\x7e]*$/;
const IS_BASE64 = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") IS_BASE64[c.charCodeAt(0)] = 1;
const isBase64At = (text: string, at: number): boolean => IS_BASE64[text.charCodeAt(at)] === 1;

/** Appends one span per base64 blob whose decoded text holds a secret (original offsets) to `out`. */
export function findEncodedSecrets(text: string, out: SecretSpan[]): void {
  // Runs of MIN_BLOB_CHARS or more, found by probing every MIN_BLOB_CHARS-th character (a run that long must cover
  // a probe): ordinary text is passed over a whole step at a time, six times faster than a regex scan here.
  let probe = MIN_BLOB_CHARS - 1;
  while (probe < text.length) {
    if (!isBase64At(text, probe)) {
      probe += MIN_BLOB_CHARS;
      continue;
    }
    let start = probe;
    while (start > 0 && isBase64At(text, start - 1)) start -= 1;
    let end = probe + 1;
    while (end < text.length && isBase64At(text, end)) end += 1;
    probe = end + MIN_BLOB_CHARS;
    // `\nQUtJQ…` in JSON-escaped text (`\\n` in JSON inside JSON): the `n` belongs to the escape, not to the blob.
    if (/[nrt]/.test(text.charAt(start)) && text.charCodeAt(start - 1) === 92) start += 1;
    if (end - start < MIN_BLOB_CHARS || end - start > MAX_BLOB_CHARS) continue;
    const runEnd = end;
    while (end < runEnd + 2 && text.charCodeAt(end) === 61) end += 1; // `=` padding
    const blob = readWrappedBlob(text, start, text.slice(start, end));
    probe = Math.max(probe, blob.end + MIN_BLOB_CHARS);
    const key = readPrivateKeyBody(blob.base64);
    if (key !== null) {
      const end = key.chars === undefined ? blob.end : keyBodyEnd(blob, key.chars);
      out.push({ kind: PRIVATE_KEY_KIND, start, end, priority: PRIORITY.privateKey });
      continue;
    }
    const decoded = decodeText(blob.base64);
    if (decoded === null) continue;
    const inner: SecretSpan[] = [];
    findPatternSecrets(decoded, inner);
    findNamedSecrets(decoded, inner);
    if (inner.length > 0) out.push({ kind: ENCODED_SECRET_KIND, start, end: blob.end, priority: PRIORITY.vendor });
  }
}

interface WrappedBlob {
  base64: string;
  end: number;
  /** Where each line of the blob ends in the text, and how long it is. */
  lines: { end: number; length: number }[];
}

/** A blob and the lines that continue it: every line but the last is exactly one wrap width long, without padding. */
function readWrappedBlob(text: string, start: number, first: string): WrappedBlob {
  let end = start + first.length;
  const lines = [{ end, length: first.length }];
  const width = first.length;
  if (!WRAP_WIDTHS.has(width) || first.endsWith("=")) return { base64: first, end, lines };
  const parts = [first];
  while (parts.length * width < MAX_BLOB_CHARS) {
    NEXT_LINE.lastIndex = end;
    const line = NEXT_LINE.exec(text)?.[1];
    // A line longer than the width is not a continuation.
    if (line === undefined || /[A-Za-z0-9+/=]/.test(text.charAt(NEXT_LINE.lastIndex))) break;
    parts.push(line);
    end = NEXT_LINE.lastIndex;
    lines.push({ end, length: line.length });
    if (line.length !== width || line.endsWith("=")) break;
  }
  return { base64: parts.join(""), end, lines };
}

/**
 * The end of the line holding the key's last character: a line joined to the blob after it (a short word on the next
 * line of prose looks like a last line) stays in the text. Whole lines only, so nothing of the key survives.
 */
function keyBodyEnd(blob: WrappedBlob, chars: number): number {
  let before = 0;
  for (const line of blob.lines) {
    before += line.length;
    if (chars <= before) return line.end;
  }
  return blob.end;
}

/** The decoded text when the blob is padded base64 of printable ASCII, else null. */
function decodeText(base64: string): string | null {
  if (base64.length < MIN_BLOB_CHARS || base64.length > MAX_BLOB_CHARS || base64.length % 4 !== 0) return null;
  try {
    if (!PRINTABLE.test(atob(base64.slice(0, PROBE_CHARS)))) return null;
    const decoded = atob(base64);
    return PRINTABLE.test(decoded) ? decoded : null;
  } catch {
    return null; // `=` inside the blob
  }
}
