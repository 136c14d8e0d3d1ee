// Finds a transcript's last compaction boundary by reading it backwards in blocks, so the cost is what follows
// the boundary, not the file's size. The needle can also occur in ordinary content (a Grep for it, a message
// about it), so each candidate line is parsed and checked.
import type { FileHandle } from "node:fs/promises";
import { isCompactBoundary, isMainChain, isSkipped } from "../../core/transcript/entries.ts";
import { DEFAULT_MAX_LINE_BYTES, NEWLINE, openIfPresent, parseLine } from "./lines.ts";

export interface BoundarySearch {
  /** Byte offset of the last main-chain `compact_boundary` line; null when the file has none. */
  offset: number | null;
  /** Bytes read to find it: proportional to what follows the boundary, not to the file. */
  scannedBytes: number;
}

const BOUNDARY_NEEDLE = Buffer.from('"compact_boundary"');
const DEFAULT_BLOCK_BYTES = 256 * 1024;
/** Largest single read while following a long line past the block. */
const MAX_STEP_BYTES = 1024 * 1024;

export async function findLastCompactionBoundary(
  path: string,
  options: { blockBytes?: number; maxLineBytes?: number } = {},
): Promise<BoundarySearch> {
  const handle = await openIfPresent(path);
  if (handle === null) return { offset: null, scannedBytes: 0 };
  try {
    const size = (await handle.stat()).size;
    const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const scan = { bytes: 0 };
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - blockBytes);
      // Overlap by the needle's length so a needle across two blocks is seen in the earlier block.
      const block = await readRange(handle, start, Math.min(size, end + BOUNDARY_NEEDLE.length - 1), scan);
      let from = end - start - 1;
      let nextEnd = start;
      while (from >= 0) {
        const hit = block.lastIndexOf(BOUNDARY_NEEDLE, from);
        if (hit < 0) break;
        const line = await checkBoundaryLine(handle, { bytes: block, start }, start + hit, size, maxLineBytes, scan);
        if (line.isBoundary) return { offset: line.start, scannedBytes: scan.bytes };
        // Further hits in the same line would be checked again for nothing: go on before its start.
        if (line.start < start) {
          nextEnd = line.start;
          break;
        }
        from = line.start - start - 1;
      }
      end = nextEnd;
    }
    return { offset: null, scannedBytes: scan.bytes };
  } finally {
    await handle.close();
  }
}

async function readRange(handle: FileHandle, start: number, end: number, scan: { bytes: number }): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  scan.bytes += filled;
  return buffer.subarray(0, filled);
}

/**
 * Whether the line holding the hit is a main-chain compact boundary, and where that line starts (for a line
 * over the cap, as far back as it was followed). Its ends are looked for in the block already read; only a
 * line reaching past the block costs more reads.
 */
async function checkBoundaryLine(
  handle: FileHandle,
  block: { bytes: Buffer; start: number },
  position: number,
  size: number,
  maxLineBytes: number,
  scan: { bytes: number },
): Promise<{ start: number; isBoundary: boolean }> {
  const relative = position - block.start;
  const before = block.bytes.lastIndexOf(NEWLINE, relative);
  const lineStart =
    before >= 0 ? block.start + before + 1 : await seekLineStart(handle, block.start, position, maxLineBytes, scan);
  if (lineStart === null) return { start: Math.max(0, position - maxLineBytes), isBoundary: false };
  const after = block.bytes.indexOf(NEWLINE, relative);
  const lineEnd =
    after >= 0
      ? block.start + after
      : await seekLineEnd(handle, block.start + block.bytes.length, size, lineStart + maxLineBytes, scan);
  if (lineEnd === null || lineEnd - lineStart > maxLineBytes) return { start: lineStart, isBoundary: false };
  const inBlock = lineStart >= block.start && lineEnd <= block.start + block.bytes.length;
  const bytes = inBlock
    ? block.bytes.subarray(lineStart - block.start, lineEnd - block.start)
    : await readRange(handle, lineStart, lineEnd, scan);
  const entry = parseLine(bytes, lineStart === 0);
  const isBoundary = entry !== null && !isSkipped(entry) && isCompactBoundary(entry) && isMainChain(entry);
  return { start: lineStart, isBoundary };
}

/** The start of the line that reaches back past `from`: reads backwards in growing steps. */
async function seekLineStart(
  handle: FileHandle,
  from: number,
  position: number,
  maxLineBytes: number,
  scan: { bytes: number },
): Promise<number | null> {
  let step = 4096;
  for (let cursor = from; cursor > 0; step = Math.min(2 * step, MAX_STEP_BYTES)) {
    const start = Math.max(0, cursor - step);
    const chunk = await readRange(handle, start, cursor, scan);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline >= 0) return start + newline + 1;
    if (position - start > maxLineBytes) return null;
    cursor = start;
  }
  return 0;
}

/** The end (its newline, or the end of the file) of a line that runs past `from`. */
async function seekLineEnd(
  handle: FileHandle,
  from: number,
  size: number,
  limit: number,
  scan: { bytes: number },
): Promise<number | null> {
  let step = 4096;
  for (let cursor = from; cursor < size; step = Math.min(2 * step, MAX_STEP_BYTES)) {
    const chunk = await readRange(handle, cursor, Math.min(size, cursor + step), scan);
    const newline = chunk.indexOf(NEWLINE);
    if (newline >= 0) return cursor + newline;
    if (chunk.length === 0) break;
    cursor += chunk.length;
    if (cursor > limit) return null;
  }
  return size;
}
