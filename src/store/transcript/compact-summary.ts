// The latest compaction summary of a transcript: the `isCompactSummary` user entry Claude Code writes right
// after the last `compact_boundary` (reference/claude-code.md §2.2). Read from the boundary on, so the cost
// follows what came after the last compaction, not the file's size.
import { isCompactSummary, isSkipped } from "../../core/transcript/entries.ts";
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
  return null;
}
