// A snapshot's transcript is transformed (redacted) one block of whole lines at a time, so no transcript is ever
// held in one string. Shared by the snapshot writer (snapshots.ts) and the redaction thread (redact-thread.ts), so
// both cut the same blocks and produce the same bytes.

/** Transform blocks: whole lines, about this many bytes each (a longer line is one block of its own). Small enough
 *  that PreCompact's two threads share a 10 MB transcript evenly (4 MiB blocks left one idle at the end: compare
 *  bench/run.ts hooks, preCompact.10MB, at each size). */
export const TRANSFORM_BLOCK_BYTES = 512 * 1024;

/** Where the blocks of `raw` start and end (end exclusive): whole lines of about TRANSFORM_BLOCK_BYTES each. */
export function blockRanges(raw: Uint8Array): [number, number][] {
  const bytes = asBuffer(raw);
  const ranges: [number, number][] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + TRANSFORM_BLOCK_BYTES);
    if (end < bytes.length) {
      const newline = bytes.indexOf(0x0a, end - 1);
      end = newline < 0 ? bytes.length : newline + 1;
    }
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}

/** One block's text transformed, as UTF-8. */
export function transformBlock(
  raw: Uint8Array,
  [start, end]: [number, number],
  transform: (text: string) => string,
): Uint8Array {
  return new TextEncoder().encode(transform(asBuffer(raw).toString("utf8", start, end)));
}

/** The blocks' outputs as one byte array (the block itself when there is one). */
export function joinBlocks(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
}

export function transformInBlocks(raw: Uint8Array, transform: (text: string) => string): Uint8Array {
  return joinBlocks(blockRanges(raw).map((range) => transformBlock(raw, range, transform)));
}

function asBuffer(raw: Uint8Array): Buffer {
  return Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
}
