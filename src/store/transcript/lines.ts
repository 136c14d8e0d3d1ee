// Shared by the transcript readers: opening a file that may be absent, and turning one line's bytes into a
// parsed entry (CRLF and a byte-order mark tolerated, blank lines ignored).
import { type FileHandle, open } from "node:fs/promises";
import { type ParsedLine, parseTranscriptLine } from "../../core/transcript/entries.ts";

/** Lines longer than this are skipped as `too-long` rather than held in memory. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
export const NEWLINE = 0x0a;

export async function openIfPresent(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** null for a blank line (nothing to report); CRLF and a leading byte-order mark are tolerated. */
export function parseLine(bytes: Buffer, atFileStart: boolean): ParsedLine | null {
  let text = bytes.toString("utf8");
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (atFileStart && text.startsWith("\uFEFF")) text = text.slice(1);
  if (text.trim() === "") return null;
  return parseTranscriptLine(text);
}
