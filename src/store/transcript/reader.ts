// Reads Claude Code transcripts (JSONL) in bounded memory: line by line from a byte offset, and from the last
// compaction boundary (found tail-first, boundary.ts) so a hook's cost follows what came after it.
// Memory: one read buffer plus at most one line (a line over the cap is skipped, never buffered whole).
import type { FileHandle } from "node:fs/promises";
import { isSkipped, type ParsedLine, SKIP_REASONS, type SkipReason } from "../../core/transcript/entries.ts";
import { findLastCompactionBoundary } from "./boundary.ts";
import { DEFAULT_MAX_LINE_BYTES, NEWLINE, openIfPresent, parseLine } from "./lines.ts";

export { type BoundarySearch, findLastCompactionBoundary } from "./boundary.ts";
export { DEFAULT_MAX_LINE_BYTES } from "./lines.ts";

export interface TranscriptLine {
  entry: ParsedLine;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Bytes including the line's newline: `offset + lineLength` is where the next line starts. 0 for an
   * unfinished last line, so a reader resuming from there reads it again once it is complete. */
  lineLength: number;
}

export interface ReaderStats {
  linesRead: number;
  bytesRead: number;
  skipped: Record<SkipReason, number>;
  /** Size when reading started; null when the file does not exist. */
  fileSize: number | null;
  /** Where reading should resume next time: just past the last complete line. */
  nextOffset: number;
}

export interface TranscriptRead extends AsyncIterable<TranscriptLine> {
  /** Filled while iterating; final once the iteration ends. Each iteration starts afresh. */
  readonly stats: ReaderStats;
}

export interface ReadOptions {
  /** Start here (a line start, e.g. a previous `nextOffset`); a position inside a line skips to the next one. */
  fromOffset?: number;
  /** Lines longer than this are skipped as `too-long`. */
  maxLineBytes?: number;
  chunkBytes?: number;
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;

export function readTranscriptEntries(path: string, options: ReadOptions = {}): TranscriptRead {
  const stats = emptyStats(options.fromOffset ?? 0);
  return {
    stats,
    [Symbol.asyncIterator]: () => {
      Object.assign(stats, emptyStats(options.fromOffset ?? 0));
      return readLines(path, options, stats);
    },
  };
}

function emptyStats(fromOffset: number): ReaderStats {
  const skipped = Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>;
  return { linesRead: 0, bytesRead: 0, skipped, fileSize: null, nextOffset: fromOffset };
}

async function* readLines(path: string, options: ReadOptions, stats: ReaderStats): AsyncGenerator<TranscriptLine> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const handle = await openIfPresent(path);
  if (handle === null) return;
  try {
    stats.fileSize = (await handle.stat()).size;
    let position = options.fromOffset ?? 0;
    if (position > stats.fileSize) return;
    // Starting inside a line (an offset that is not a line start) would turn its tail into a malformed line.
    let resyncing = position > 0 && !(await endsWithNewline(handle, position));
    const buffer = Buffer.allocUnsafe(options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
    let parts: Buffer[] = [];
    let lineBytes = 0;
    let lineStart = position;
    let tooLong = false;

    const finishLine = (tail: Buffer, terminated: boolean): TranscriptLine | null => {
      const length = lineBytes + tail.length + (terminated ? 1 : 0);
      const offset = lineStart;
      let entry: ParsedLine | null;
      if (tooLong) entry = terminated ? { skipped: "too-long" } : { skipped: "truncated" };
      else entry = parseLine(parts.length === 0 ? tail : Buffer.concat([...parts, tail]), offset === 0);
      parts = [];
      lineBytes = 0;
      tooLong = false;
      lineStart = offset + length;
      if (entry === null) {
        stats.nextOffset = lineStart;
        return null;
      }
      // An unfinished last line that does not parse yet is left for the next read.
      const pendingTail = !terminated && isSkipped(entry);
      if (pendingTail) entry = { skipped: "truncated" };
      else stats.nextOffset = lineStart;
      stats.linesRead += 1;
      if (isSkipped(entry)) stats.skipped[entry.skipped] += 1;
      return { entry, offset, lineLength: pendingTail ? 0 : length };
    };

    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      stats.bytesRead += bytesRead;
      const view = buffer.subarray(0, bytesRead);
      let start = 0;
      while (start < view.length) {
        const newline = view.indexOf(NEWLINE, start);
        if (newline < 0) {
          const rest = view.subarray(start);
          lineBytes += rest.length;
          if (!tooLong && !resyncing) {
            if (lineBytes > maxLineBytes) {
              tooLong = true;
              parts = [];
            } else parts.push(Buffer.from(rest));
          }
          break;
        }
        const tail = view.subarray(start, newline);
        start = newline + 1;
        if (resyncing) {
          resyncing = false;
          lineStart += lineBytes + tail.length + 1;
          lineBytes = 0;
          stats.nextOffset = lineStart;
          continue;
        }
        if (lineBytes + tail.length > maxLineBytes) tooLong = true;
        const line = finishLine(tail, true);
        if (line !== null) yield line;
      }
    }
    if (lineBytes > 0 && !resyncing) {
      const line = finishLine(Buffer.alloc(0), false);
      if (line !== null) yield line;
    }
  } finally {
    await handle.close();
  }
}

async function endsWithNewline(handle: FileHandle, position: number): Promise<boolean> {
  const byte = Buffer.alloc(1);
  const { bytesRead } = await handle.read(byte, 0, 1, position - 1);
  return bytesRead === 1 && byte[0] === NEWLINE;
}

export interface SinceLastCompaction {
  /** Where the entries start: the last boundary's line (its entry comes first), or null for the whole file. */
  boundaryOffset: number | null;
  scannedBytes: number;
  entries: TranscriptRead;
}

/**
 * The entries from the last compaction boundary on (the boundary itself first), or the whole file when it has
 * none. Streamed: iterate `entries` (e.g. into a context-state builder) rather than collecting a huge file.
 */
export async function readSinceLastCompaction(
  path: string,
  options: Omit<ReadOptions, "fromOffset"> & { blockBytes?: number } = {},
): Promise<SinceLastCompaction> {
  const search = await findLastCompactionBoundary(path, options);
  const { blockBytes: _blockBytes, ...readOptions } = options;
  return {
    boundaryOffset: search.offset,
    scannedBytes: search.scannedBytes,
    entries: readTranscriptEntries(path, { ...readOptions, fromOffset: search.offset ?? 0 }),
  };
}
