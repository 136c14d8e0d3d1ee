// Shared by the transcript readers: opening a file that may be absent, and turning one line's bytes into a
// parsed entry (CRLF and a byte-order mark tolerated, blank lines ignored).
import type { FileHandle } from "node:fs/promises";
import { type ParsedLine, parseTranscriptLine } from "../../core/transcript/entries.ts";
import { openRegularFile } from "../files/open-regular.ts";

/** Lines longer than this are skipped as `too-long` rather than held in memory. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
export const NEWLINE = 0x0a;

/** The transcript opened for reading; null when absent. A FIFO or device is refused (UNSAFE_PATH), never waited on. */
export function openIfPresent(path: string): Promise<FileHandle | null> {
  return openRegularFile(path);
}

/** null for a blank line (nothing to report); CRLF and a leading byte-order mark are tolerated. */
export function parseLine(bytes: Buffer, atFileStart: boolean): ParsedLine | null {
  let text = bytes.toString("utf8");
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (atFileStart && text.startsWith("\uFEFF")) text = text.slice(1);
  if (text.trim() === "") return null;
  return parseTranscriptLine(text);
}
