// The latest compaction summary of a transcript: the `isCompactSummary` user entry Claude Code writes right
// after the last `compact_boundary` (docs/claude-code-facts.md "Transcripts"). Read from the boundary on, so the cost
// follows what came after the last compaction, not the file's size.
import {
  isCompactBoundary,
  isCompactSummary,
  isSkipped,
  parseTranscriptLine,
  type UserEntry,
} from "../../core/transcript/entries.ts";
import { NEWLINE, openIfPresent } from "./lines.ts";
import { readSinceLastCompaction } from "./reader.ts";

export interface CompactSummary {
  text: string;
  uuid: string;
  timestamp: string | null;
}

export async function readLatestCompactSummary(transcriptPath: string): Promise<CompactSummary | null> {
  const { boundaryOffset, entries } = await readSinceLastCompaction(transcriptPath);
  if (boundaryOffset === null) return null;
  for await (const { entry } of entries) {
    if (isSkipped(entry) || !isCompactSummary(entry)) continue;
    return summaryOf(entry);
  }
  return null;
}

/** How much of the transcript's end is searched for a fresh summary: the boundary and summary are last. */
export const FRESH_SUMMARY_TAIL_BYTES = 2 * 1024 * 1024;
/** A boundary written this long before the state was saved belongs to an earlier compaction. */
const CLOCK_SLACK_MS = 5_000;

/**
 * The summary of the compaction that followed `savedAt` (PreCompact's save), from the transcript's last
 * bytes only: null when the tail has no compact boundary at or after that time (Claude Code 2.1.330 writes
 * the boundary and summary after SessionStart `compact`; an older compaction's summary must not be used).
 * Cheap when there is none: one bounded read, a byte search and at most the boundary line parsed.
 */
export async function readFreshCompactSummary(
  transcriptPath: string,
  savedAt: string,
  tailBytes = FRESH_SUMMARY_TAIL_BYTES,
): Promise<CompactSummary | null> {
  const handle = await openIfPresent(transcriptPath);
  if (handle === null) return null;
  let tail: Buffer;
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, tailBytes);
    tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
  } finally {
    await handle.close();
  }
  const needle = tail.lastIndexOf('"compact_boundary"');
  if (needle < 0) return null;
  const lineStart = tail.lastIndexOf(NEWLINE, needle) + 1;
  const lineEnd = tail.indexOf(NEWLINE, needle);
  // The boundary line alone decides whether this is the compaction that followed the save: an earlier
  // compaction's costs no more than parsing that one line.
  const boundary = parseTranscriptLine(tail.subarray(lineStart, lineEnd < 0 ? tail.length : lineEnd).toString("utf8"));
  if (isSkipped(boundary) || !isCompactBoundary(boundary)) return null;
  const notBefore = Date.parse(savedAt) - CLOCK_SLACK_MS;
  const at = Date.parse(boundary.timestamp ?? "");
  if (!Number.isNaN(notBefore) && (Number.isNaN(at) || at < notBefore)) return null;
  if (lineEnd < 0) return null;
  // Claude Code writes the summary right after its boundary.
  const after = tail
    .subarray(lineEnd + 1)
    .toString("utf8")
    .split("\n");
  for (const raw of after.slice(0, SUMMARY_WITHIN_LINES)) {
    const line = raw.trim() === "" ? null : parseTranscriptLine(raw);
    if (line !== null && !isSkipped(line) && isCompactSummary(line)) return summaryOf(line);
  }
  return null;
}

/** How many lines after its boundary the summary entry is looked for. */
const SUMMARY_WITHIN_LINES = 20;

function summaryOf(entry: UserEntry): CompactSummary {
  const content = entry.message.content;
  const text =
    typeof content === "string"
      ? content
      : content
          .filter((block) => block.type === "text")
          .map((block) => block.text ?? "")
          .join("\n");
  return { text, uuid: entry.uuid, timestamp: entry.timestamp ?? null };
}
