// Chunking speed on realistic markdown: the real transcripts' assistant prose, tool inputs and tool results (the
// latter as fenced code, as a reply quoting them would), concatenated in order to 100 KB and 1 MB.
// Budget (issue 6): input chunking <= 5 ms per 100 KB. Sizes are UTF-16 code units (the chunkers' unit).
import { chunkInput } from "../src/core/chunking/input.ts";
import { chunkOutput } from "../src/core/chunking/output.ts";
import { readEntries, realTranscriptPaths } from "../tests/helpers/fixture-messages.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const BUDGET_MS_PER_100KB = 5;

/** Median and fastest of RUNS timed runs after three warm-ups (the dev machines are shared: the minimum shows the floor). */
function time(task: () => void): { ms: number; minMs: number } {
  for (let i = 0; i < 3; i += 1) task();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    task();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, minMs: times[0] ?? 0 };
}

/** The fixtures' conversation as one markdown document: prose as written, tool traffic as fenced blocks. */
function realisticMarkdown(): string {
  const parts: string[] = [];
  for (const path of realTranscriptPaths()) {
    for (const entry of readEntries(path)) {
      if (entry.type !== "user" && entry.type !== "assistant") continue;
      const content = entry.message.content;
      if (typeof content === "string") {
        parts.push(content);
        continue;
      }
      for (const block of content) {
        if (block.type === "text" && block.text !== undefined) parts.push(block.text);
        else if (block.type === "tool_use") parts.push(`\`\`\`json\n${JSON.stringify(block.input, null, 2)}\n\`\`\``);
        else if (block.type === "tool_result" && typeof block.content === "string") {
          parts.push(`\`\`\`text\n${block.content}\n\`\`\``);
        }
      }
    }
  }
  return parts.join("\n\n");
}

function sized(source: string, length: number): string {
  return source.repeat(Math.ceil(length / source.length)).slice(0, length);
}

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

export async function run(): Promise<Record<string, unknown>> {
  const source = realisticMarkdown();
  const results: Record<string, unknown> = {
    corpus: { chars: source.length, codeFences: (source.match(/^```/gm) ?? []).length },
    budgetMsPer100KB: BUDGET_MS_PER_100KB,
  };
  for (const [label, length] of [
    ["100KB", 100_000],
    ["1MB", 1_000_000],
  ] as const) {
    const text = sized(source, length);
    const per100KB = length / 100_000;
    const input = time(() => chunkInput(text));
    const output = time(() => chunkOutput(text));
    const inputChunks = chunkInput(text);
    const breakKinds: Record<string, number> = {};
    for (const chunk of inputChunks) breakKinds[chunk.breakKind] = (breakKinds[chunk.breakKind] ?? 0) + 1;
    results[label] = {
      input: {
        ms: round(input.ms),
        minMs: round(input.minMs),
        msPer100KB: round(input.ms / per100KB),
        withinBudget: input.ms / per100KB <= BUDGET_MS_PER_100KB,
        chunks: inputChunks.length,
        breakKinds,
      },
      output: {
        ms: round(output.ms),
        minMs: round(output.minMs),
        msPer100KB: round(output.ms / per100KB),
        chunks: chunkOutput(text).length,
      },
    };
  }
  // Worst case for the fallbacks: 100 KB with no break at all (every chunk scans its window, then segments graphemes).
  const noBreaks = "x".repeat(100_000);
  const noBreaksInput = time(() => chunkInput(noBreaks));
  const noBreaksOutput = time(() => chunkOutput(noBreaks));
  results.noBreaks100KB = {
    inputMs: round(noBreaksInput.ms),
    inputMinMs: round(noBreaksInput.minMs),
    outputMs: round(noBreaksOutput.ms),
    outputMinMs: round(noBreaksOutput.minMs),
  };
  return results;
}
