// Streams one transcript from a byte offset into index messages (src/core/search/messages.ts), for incremental
// ingestion: the file is read in 1 MB blocks and split on the newline byte, so offsets are exact and memory is one
// block plus at most one line (a line over MAX_LINE_BYTES is skipped and counted, never buffered whole). A read from an
// offset also reads back up to 64 KB for the line before it: a summary record right after that line names it.
// Reading stops at the last complete line: a partial last line (Claude Code still writing) is left for next time,
// and `endOffset` is the byte after the last newline consumed.
import { closeSync, readSync } from "node:fs";
import { createIndexMessageBuilder, type IndexMessage, type TranscriptMeta } from "../../core/search/messages.ts";
import { parseTranscriptLine } from "../../core/transcript/entries.ts";
import { openRegularFile } from "../../store/files/open-regular.ts";
import { openRegularFileSync } from "../../store/files/safe-path.ts";

export type { IndexMessage, TranscriptMeta } from "../../core/search/messages.ts";

export interface TranscriptIncrement {
  messages: IndexMessage[];
  /** Where the next read starts: just past the last complete line read. */
  endOffset: number;
  /** Complete lines read. */
  lines: number;
  /** Lines that could not be read: not JSON, not an object, invalid UTF-8, a known type without its fields, too long. */
  skippedLines: number;
  /** Entries of a type this version of ctx does not know (a newer Claude Code). */
  unknownEntries: number;
  meta: TranscriptMeta;
  /** The file's first bytes as read (up to `keepHead`), when the read began at offset 0 and was asked to keep them. */
  head?: Buffer;
}

export interface ReadTranscriptOptions {
  /** Stops reading between blocks; the increment returned covers what was read (its endOffset says how far). */
  signal?: AbortSignal;
  /** Lines longer than this are skipped as unreadable (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** Strings never redacted (config `redaction.allowlist`). */
  allowlist?: readonly string[];
  /** Keep up to this many of the file's first bytes (`head`) when reading from offset 0: no second read for them. */
  keepHead?: number;
  /**
   * Read with blocking calls: for a worker thread, which has nothing else to do meanwhile (each awaited read was a
   * trip through libuv's thread pool, thousands per sync). The main thread, which serves requests, reads without.
   */
  blocking?: boolean;
}

/** A real line can hold a big pasted file or tool output; past this it is garbage to the index anyway. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const BLOCK_BYTES = 1024 * 1024;
/** How far back an incremental read looks for the line before it (a summary record names the line it follows). */
const PREVIOUS_LINE_LOOKS = [8 * 1024, 64 * 1024];
const NEWLINE = 0x0a;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
/**
 * One read block kept for the next read: a sync reads thousands of files one after another, and a fresh 1 MB
 * block each (outside Node's buffer pool) was garbage the heap grew to hold. Reads at the same time take their own.
 */
let spareBlock: Buffer | null = null;

/**
 * Reads `path` from `fromOffset` (a previous endOffset; 0 for the whole file). An offset inside a line skips to
 * the next line. A file that does not exist (deleted by Claude Code's cleanup) gives an empty increment.
 */
export async function readTranscriptFrom(
  path: string,
  fromOffset: number,
  options: ReadTranscriptOptions = {},
): Promise<TranscriptIncrement> {
  const start = Math.max(0, Math.trunc(fromOffset));
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const builder = createIndexMessageBuilder(options.allowlist === undefined ? {} : { allowlist: options.allowlist });
  const counts = { lines: 0, skippedLines: 0, unknownEntries: 0 };
  let endOffset = start;

  // Only a regular file is read (a FIFO put in a transcript's place would block the read): anything else is
  // UNSAFE_PATH, the file's error (a sync reports it and goes on when it can). Null: gone, an empty increment.
  // The path is a listed file's (./discover.ts), whatever its name holds.
  const opening = { listed: true };
  const handle = options.blocking === true ? openRegularFileSync(path, opening) : await openRegularFile(path, opening);
  let block: Buffer | null = null;
  let head: Buffer | undefined;
  if (handle === null) return { messages: [], endOffset, ...counts, meta: builder.finish().meta };
  const readBlock = (buffer: Buffer, position: number, length = BLOCK_BYTES): number | Promise<number> =>
    typeof handle === "number"
      ? readSync(handle, buffer, 0, length, position)
      : handle.read(buffer, 0, length, position).then((read) => read.bytesRead);
  try {
    // The line before an incremental read: most fit in the first look back, a long one needs the second.
    for (const back of start > 0 ? PREVIOUS_LINE_LOOKS : []) {
      const from = Math.max(0, start - back);
      const before = Buffer.allocUnsafe(start - from);
      const got = await readBlock(before, from, before.length);
      if (notePreviousLine(before.subarray(0, got), from === 0, builder) !== "longer" || from === 0) break;
    }
    // Read from one byte early: if that byte is not a newline, `start` is inside a line and that line is skipped.
    let position = start > 0 ? start - 1 : 0;
    let resyncing = start > 0;
    let atStart = start > 0;
    let parts: Buffer[] = [];
    let lineBytes = 0;
    let lineStart = start;
    const buffer = spareBlock ?? Buffer.allocUnsafe(BLOCK_BYTES);
    spareBlock = null;
    block = buffer;

    const finishLine = (tail: Buffer) => {
      const length = lineBytes + tail.length;
      counts.lines += 1;
      if (length > maxLineBytes) counts.skippedLines += 1;
      else {
        const bytes = parts.length === 0 ? tail : Buffer.concat([...parts, tail], length);
        const outcome = readLine(bytes, lineStart, builder);
        if (outcome === "skipped") counts.skippedLines += 1;
        else if (outcome === "unknown") counts.unknownEntries += 1;
      }
      parts = [];
      lineBytes = 0;
    };

    while (options.signal?.aborted !== true) {
      const bytesRead = await readBlock(buffer, position);
      if (bytesRead === 0) break;
      if (position === 0 && options.keepHead !== undefined) {
        head = Buffer.from(buffer.subarray(0, Math.min(bytesRead, options.keepHead)));
      }
      const blockStart = position;
      position += bytesRead;
      let from = 0;
      if (atStart) {
        atStart = false;
        if (buffer[0] === NEWLINE) resyncing = false;
        from = 1;
      }
      while (from < bytesRead) {
        const newline = buffer.indexOf(NEWLINE, from);
        if (newline < 0 || newline >= bytesRead) {
          const rest = bytesRead - from;
          if (!resyncing && lineBytes + rest <= maxLineBytes) parts.push(Buffer.from(buffer.subarray(from, bytesRead)));
          else parts = [];
          lineBytes += rest;
          break;
        }
        const next = blockStart + newline + 1;
        if (resyncing) {
          resyncing = false;
          counts.skippedLines += 1;
          parts = [];
          lineBytes = 0;
        } else finishLine(buffer.subarray(from, newline));
        lineStart = next;
        endOffset = next;
        from = newline + 1;
      }
    }
  } finally {
    if (block !== null) spareBlock = block;
    if (typeof handle === "number") closeSync(handle);
    else await handle.close();
  }
  const { messages, meta } = builder.finish();
  return { messages, endOffset, ...counts, meta, ...(head === undefined ? {} : { head }) };
}

type LineOutcome = "entry" | "ignored" | "skipped" | "unknown";

/**
 * The line that ends just before an incremental read's start (`before` ends at that start; `fromFileStart`: it begins
 * at the file's first byte), noted for the summary record Claude Code may write right after it: "longer" when the
 * line begins before `before` does, "none" for a start inside a line or a line that is not UTF-8.
 */
function notePreviousLine(
  before: Buffer,
  fromFileStart: boolean,
  builder: ReturnType<typeof createIndexMessageBuilder>,
): "read" | "longer" | "none" {
  const end = before.length - 1;
  if (end < 0 || before[end] !== NEWLINE) return "none";
  const open = end > 0 ? before.lastIndexOf(NEWLINE, end - 1) : -1;
  if (open < 0 && !fromFileStart) return "longer";
  let text: string;
  try {
    text = decoder.decode(before.subarray(open + 1, end));
  } catch {
    return "none";
  }
  const parsed = parseTranscriptLine(text.endsWith("\r") ? text.slice(0, -1) : text);
  if (!("skipped" in parsed)) builder.noteEarlierLine(parsed);
  return "read";
}

function readLine(bytes: Buffer, offset: number, builder: ReturnType<typeof createIndexMessageBuilder>): LineOutcome {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return "skipped";
  }
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.trim() === "") return "ignored";
  const parsed = parseTranscriptLine(text);
  if ("skipped" in parsed) {
    if (parsed.skipped === "unknown-type") return "unknown";
    return parsed.skipped === "meta" ? "ignored" : "skipped";
  }
  builder.add(parsed, offset);
  return "entry";
}
