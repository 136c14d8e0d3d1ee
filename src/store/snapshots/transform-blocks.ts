// A snapshot's transcript is transformed (redacted) one block of whole lines at a time, so no transcript is ever
// held in one string. Shared by the snapshot writer (snapshots.ts) and the redaction thread (redact-thread.ts), so
// both cut the same blocks and produce the same bytes.

/** Transform blocks: whole lines, about this many bytes each (a longer line is one block of its own). */
export const TRANSFORM_BLOCK_BYTES = 4 * 1024 * 1024;

export function transformInBlocks(raw: Uint8Array, transform: (text: string) => string): Uint8Array {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + TRANSFORM_BLOCK_BYTES);
    if (end < bytes.length) {
      const newline = bytes.indexOf(0x0a, end - 1);
      end = newline < 0 ? bytes.length : newline + 1;
    }
    parts.push(encoder.encode(transform(bytes.toString("utf8", start, end))));
    start = end;
  }
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
}
