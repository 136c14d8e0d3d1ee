// How far the 4-characters-per-token estimate (src/core/estimate.ts) is from real usage on the real transcripts.
// Two measurements, both from the `usage` Claude Code records:
// - input growth: between two consecutive API calls of one chain, the context (input + cache_creation +
//   cache_read) grows by what was added in between: the first call's reply (text, tool calls) and the user-side
//   entries (tool results, prompts). Compared with the estimate of exactly that text. Per-block framing (role
//   markers, tool ids) is real but not text, so small intervals carry a positive overhead: "large" (>= 1,000 real
//   tokens) is the figure that speaks for the text itself.
// - output: a reply's final output_tokens against the estimate of its text + tool inputs. Only replies whose last
//   line has a stop_reason count: elsewhere the transcript holds a mid-stream output_tokens (1-9 for a long reply).
// Kinds: prose (text without code fences), code (fenced text, Read results, Write/Edit inputs), tool-io (tool
// inputs as JSON and other tool results); an interval is "mixed" when no kind has >= 70% of its characters.
import { basename } from "node:path";
import { CHARS_PER_TOKEN, estimateTokens } from "../src/core/estimate.ts";
import type { AssistantEntry, ContentBlock, TranscriptEntry } from "../src/core/transcript/entries.ts";
import { readEntries, realTranscriptPaths } from "../tests/helpers/fixture-messages.ts";

type Kind = "prose" | "code" | "tool-io";
type Chars = Record<Kind, number>;
interface Sample {
  kind: Kind | "mixed";
  real: number;
  estimate: number;
  chars: number;
}

const CODE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const emptyChars = (): Chars => ({ prose: 0, code: 0, "tool-io": 0 });

function resultText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const item of content as { type?: string; text?: string }[]) {
    if (item.type === "image") return null; // images are counted by the API in their own way
    if (item.type === "text" && typeof item.text === "string") parts.push(item.text);
  }
  return parts.join("\n");
}

/** Adds the text a block sends to `chars` by kind; false when the block cannot be estimated (an image). */
function addBlock(block: ContentBlock, chars: Chars, toolNames: Map<string, string>): boolean {
  if (block.type === "text" || block.type === "thinking") {
    const text = block.type === "text" ? (block.text ?? "") : String((block as { thinking?: unknown }).thinking ?? "");
    chars[/```|~~~/.test(text) ? "code" : "prose"] += text.length;
  } else if (block.type === "tool_use") {
    const name = block.name ?? "";
    if (block.id !== undefined) toolNames.set(block.id, name);
    chars[CODE_TOOLS.has(name) ? "code" : "tool-io"] += name.length + JSON.stringify(block.input ?? {}).length;
  } else if (block.type === "tool_result") {
    const text = resultText(block.content);
    if (text === null) return false;
    chars[toolNames.get(block.tool_use_id ?? "") === "Read" ? "code" : "tool-io"] += text.length;
  } else if (block.type === "image") return false;
  return true;
}

function addEntry(entry: TranscriptEntry, chars: Chars, toolNames: Map<string, string>): boolean {
  if (entry.type !== "user" && entry.type !== "assistant") return true;
  const content = entry.message.content;
  if (typeof content === "string") {
    chars[/```|~~~/.test(content) ? "code" : "prose"] += content.length;
    return true;
  }
  return content.every((block) => addBlock(block, chars, toolNames));
}

function sampleOf(chars: Chars, real: number): Sample {
  const total = chars.prose + chars.code + chars["tool-io"];
  const dominant = (Object.keys(chars) as Kind[]).find((kind) => chars[kind] >= 0.7 * total);
  // The estimate of the interval as one text: what a caller estimating unsent text would compute.
  return { kind: dominant ?? "mixed", real, estimate: Math.ceil(total / CHARS_PER_TOKEN), chars: total };
}

const contextOf = (entry: AssistantEntry): number => {
  const usage = entry.message.usage;
  return (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
};

function measureFile(path: string): { input: Sample[]; output: Sample[] } {
  const subagentFile = basename(path).startsWith("agent-");
  const entries = readEntries(path).filter((e) => subagentFile || !("isSidechain" in e) || e.isSidechain !== true);
  const input: Sample[] = [];
  const output: Sample[] = [];
  const toolNames = new Map<string, string>();
  let previous: { id: string; context: number } | null = null;
  let chars = emptyChars();
  let usable = true;
  let reply: { id: string; chars: Chars; last: AssistantEntry } | null = null;
  const closeReply = (): void => {
    if (reply?.last.message.stop_reason && (reply.last.message.usage?.output_tokens ?? 0) > 0) {
      output.push(sampleOf(reply.chars, reply.last.message.usage?.output_tokens ?? 0));
    }
    reply = null;
  };
  for (const entry of entries) {
    if (entry.type === "system" && entry.subtype === "compact_boundary") {
      previous = null; // the context restarts: no growth to measure across it
      closeReply();
      continue;
    }
    if (entry.type === "assistant" && entry.message.model !== "<synthetic>" && entry.isApiErrorMessage !== true) {
      const id = entry.message.id ?? entry.uuid;
      if (previous === null || previous.id !== id) {
        const context = contextOf(entry);
        if (previous !== null && usable && context > previous.context)
          input.push(sampleOf(chars, context - previous.context));
        previous = { id, context };
        chars = emptyChars();
        usable = true;
        closeReply();
        reply = { id, chars: emptyChars(), last: entry };
      }
      reply = reply ?? { id, chars: emptyChars(), last: entry };
      reply.last = entry;
      usable = addEntry(entry, reply.chars, toolNames) && usable;
    }
    if (entry.type === "user" && entry.isCompactSummary === true) usable = false;
    usable = addEntry(entry, chars, toolNames) && usable;
  }
  closeReply();
  return { input, output };
}

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function summarize(samples: Sample[]): Record<string, unknown> {
  if (samples.length === 0) return { n: 0 };
  const errors = samples.map((s) => ((s.estimate - s.real) / s.real) * 100);
  const real = samples.reduce((sum, s) => sum + s.real, 0);
  const chars = samples.reduce((sum, s) => sum + s.chars, 0);
  return {
    n: samples.length,
    meanAbsPctError: round(errors.reduce((sum, e) => sum + Math.abs(e), 0) / errors.length),
    medianAbsPctError: round(median(errors.map(Math.abs))),
    medianSignedPctError: round(median(errors)),
    aggregateBiasPct: round(((samples.reduce((sum, s) => sum + s.estimate, 0) - real) / real) * 100),
    realCharsPerToken: round(chars / real, 2),
    medianCharsPerToken: round(median(samples.map((s) => s.chars / s.real)), 2),
  };
}

function byKind(samples: Sample[]): Record<string, unknown> {
  const kinds = ["prose", "code", "tool-io", "mixed"] as const;
  return Object.fromEntries(kinds.map((kind) => [kind, summarize(samples.filter((s) => s.kind === kind))]));
}

export async function run(): Promise<Record<string, unknown>> {
  const paths = realTranscriptPaths();
  const measured = paths.map(measureFile);
  const input = measured.flatMap((m) => m.input);
  const output = measured.flatMap((m) => m.output);
  const large = input.filter((s) => s.real >= 1_000);
  return {
    charsPerToken: CHARS_PER_TOKEN,
    transcripts: paths.length,
    inputGrowth: {
      all: summarize(input),
      large: summarize(large),
      byKindLarge: byKind(large),
      byKindAll: byKind(input),
    },
    outputTokens: { all: summarize(output), byKind: byKind(output) },
    note:
      "signed error > 0: the estimate is high. realCharsPerToken (all characters / all tokens) and " +
      "medianCharsPerToken (per interval): the ratio the data itself shows",
    sanity: { estimateOfEmpty: estimateTokens("") },
  };
}
