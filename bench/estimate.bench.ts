// How far the 4-characters-per-token estimate (src/core/estimate.ts) is from real usage: in the real
// fixtures, the context growth between two consecutive main-chain API calls (usage input + cache creation +
// cache read) against the estimate of the text that entered the context in between (the earlier reply's
// text, thinking and tool calls, then the tool results and prompts). Intervals across a compaction are skipped.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { estimateTokens } from "../src/core/estimate.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = [
  "spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
  "spotter/subagent.jsonl",
  "spotter/tool_heavy.jsonl",
  "claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
  "claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
];

interface Block {
  type?: string;
  text?: string;
  thinking?: string;
  name?: string;
  input?: unknown;
  content?: unknown;
}
interface Entry {
  type?: string;
  subtype?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  requestId?: string;
  message?: { model?: string; content?: unknown; usage?: Record<string, number | undefined> };
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: Block) => {
      if (block.type === "text") return block.text ?? "";
      if (block.type === "thinking") return block.thinking ?? "";
      if (block.type === "tool_use") return `${block.name} ${JSON.stringify(block.input ?? {})}`;
      if (block.type === "tool_result") return textOfContent(block.content);
      return "";
    })
    .join("\n");
}

function intervals(path: string): Array<{ actual: number; estimated: number }> {
  const entries = readFileSync(join(root, "tests", "fixtures", "transcripts", path), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Entry)
    .filter((entry) => entry.isSidechain !== true);
  const out: Array<{ actual: number; estimated: number }> = [];
  let lastRequest: string | null = null;
  let lastUsed: number | null = null;
  let pendingText = "";
  for (const entry of entries) {
    if (entry.type === "system" && entry.subtype === "compact_boundary") {
      lastUsed = null;
      pendingText = "";
      continue;
    }
    if (entry.type === "assistant" && entry.message?.usage && entry.message.model !== "<synthetic>") {
      const u = entry.message.usage;
      const used = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
      if (entry.requestId !== lastRequest) {
        if (lastUsed !== null && used > lastUsed)
          out.push({ actual: used - lastUsed, estimated: estimateTokens(pendingText) });
        lastUsed = used;
        lastRequest = entry.requestId ?? null;
        pendingText = "";
      }
      pendingText += textOfContent(entry.message.content);
    } else if (entry.type === "user" && entry.isMeta !== true) {
      pendingText += textOfContent(entry.message?.content);
    }
  }
  return out;
}

export async function run(): Promise<Record<string, unknown>> {
  const all = FIXTURES.flatMap(intervals);
  const errors = all.map((i) => (i.estimated - i.actual) / i.actual).sort((a, b) => a - b);
  const at = (q: number) => Math.round((errors[Math.floor(q * (errors.length - 1))] ?? Number.NaN) * 1000) / 10;
  const sum = (key: "actual" | "estimated") => all.reduce((total, i) => total + i[key], 0);
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  return {
    intervals: all.length,
    actualTokens: sum("actual"),
    estimatedTokens: sum("estimated"),
    /** Sum of estimates over sum of real growth: below 1 means the estimate undercounts. */
    aggregateRatio: Math.round((sum("estimated") / sum("actual")) * 1000) / 1000,
    relativeErrorPercent: { p10: at(0.1), median: at(0.5), p90: at(0.9) },
    medianAbsoluteErrorPercent: Math.round((absolute[Math.floor(absolute.length / 2)] ?? Number.NaN) * 1000) / 10,
  };
}
