// The real transcripts' message texts (tests/fixtures/claude): every text block, tool input and tool result
// of user and assistant entries, for the chunker tests and the benchmarks.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseTranscriptLine, type TranscriptEntry } from "../../src/core/transcript/entries.ts";

export const TRANSCRIPTS_DIR = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** Every real (non-synthetic) transcript file, subagent transcripts included. */
export function realTranscriptPaths(root = TRANSCRIPTS_DIR): string[] {
  const paths: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "synthetic") walk(path);
      else if (entry.name.endsWith(".jsonl")) paths.push(path);
    }
  };
  walk(root);
  return paths.sort();
}

export function readEntries(path: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const parsed = parseTranscriptLine(line);
    if (!("skipped" in parsed)) entries.push(parsed);
  }
  return entries;
}

/** The texts a conversation carries: text blocks, tool inputs (as JSON) and tool results. */
export function messageTexts(entry: TranscriptEntry): string[] {
  if (entry.type !== "user" && entry.type !== "assistant") return [];
  const content = entry.message.content;
  if (typeof content === "string") return [content];
  const texts: string[] = [];
  for (const block of content) {
    if (block.type === "text" && block.text !== undefined) texts.push(block.text);
    else if (block.type === "tool_use") texts.push(JSON.stringify(block.input ?? {}));
    else if (block.type === "tool_result") {
      if (typeof block.content === "string") texts.push(block.content);
      else if (Array.isArray(block.content)) {
        for (const item of block.content as { type?: string; text?: string }[]) {
          if (item.type === "text" && typeof item.text === "string") texts.push(item.text);
        }
      }
    }
  }
  return texts;
}

/** The `count` longest message texts across the real fixtures, longest first. */
export function longestFixtureMessages(count: number): string[] {
  const texts = realTranscriptPaths().flatMap((path) => readEntries(path).flatMap(messageTexts));
  return [...new Set(texts)].sort((a, b) => b.length - a.length).slice(0, count);
}
