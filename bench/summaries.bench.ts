// Summaries: extractive summaries per 1,000 real messages, hierarchical assembly of a synthetic 5,000-message
// session (both presets), and the key-fact share and compression ratio of the extractive provider on the real
// fixtures (the same checklist the tests use). Medians of BENCH_RUNS runs.
import { readFileSync } from "node:fs";
import { assembleContext, BRIDGE_PRESET, SMART_CONTEXT_PRESET } from "../src/core/summaries/assemble.ts";
import { summarizeExtractive } from "../src/core/summaries/extractive.ts";
import { collectMessages, neighboursOf, type SummaryMessage } from "../src/core/summaries/messages.ts";
import { parseTranscriptLine } from "../src/core/transcript/entries.ts";
import { measureAllFixtures } from "../tests/fixtures/summaries/measure.ts";
import { FIXTURE } from "../tests/helpers/claude-projects.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

/** Median wall time, and median CPU time (user + system: steadier on a loaded machine). */
function medianMs(task: () => void): { ms: number; cpuMs: number } {
  task();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    task();
    const used = process.cpuUsage(startCpu);
    times.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { ms: median(times), cpuMs: median(cpu) };
}

function realMessages(): SummaryMessage[] {
  const text = readFileSync(FIXTURE.long, "utf8");
  return collectMessages(
    text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(parseTranscriptLine),
  ).messages;
}

/** `count` messages cycling through the real ones, with fresh uuids. */
function session(source: SummaryMessage[], count: number): SummaryMessage[] {
  return Array.from({ length: count }, (_, i) => ({ ...(source[i % source.length] as SummaryMessage), uuid: `m${i}` }));
}

export async function run(): Promise<Record<string, unknown>> {
  const source = realMessages();
  const thousand = session(source, 1_000);
  const thousandChars = thousand.reduce((sum, message) => sum + message.text.length, 0);
  const summarizeTime = medianMs(() => {
    for (let i = 0; i < thousand.length; i += 1) {
      summarizeExtractive({ message: thousand[i] as SummaryMessage, ...neighboursOf(thousand, i) });
    }
  });

  const big = session(source, 5_000);
  const summaries = new Map(
    big.map((message, i) => [message.uuid, summarizeExtractive({ message, ...neighboursOf(big, i) })]),
  );
  const summaryOf = (message: SummaryMessage) => summaries.get(message.uuid);
  const assembly = (policy: typeof SMART_CONTEXT_PRESET) => {
    let result = assembleContext({ messages: big, summaryOf, policy });
    const time = medianMs(() => {
      result = assembleContext({ messages: big, summaryOf, policy });
    });
    return {
      ms: round(time.ms, 2),
      cpuMs: round(time.cpuMs, 2),
      originalTokens: result.originalTokens,
      assembledTokens: result.assembledTokens,
      compressionRatio: round(result.compressionRatio, 4),
      layers: {
        aggregate: result.aggregate.messages,
        summarized: result.summarized.length,
        recent: result.recent.length,
      },
    };
  };

  const fixtures = measureAllFixtures();
  const facts = fixtures.reduce((sum, f) => sum + f.facts.length, 0);
  const kept = fixtures.reduce((sum, f) => sum + f.kept.length, 0);
  const original = fixtures.reduce((sum, f) => sum + f.originalChars, 0);
  const summary = fixtures.reduce((sum, f) => sum + f.summaryChars, 0);
  return {
    extractivePer1000Messages: {
      ms: round(summarizeTime.ms),
      cpuMs: round(summarizeTime.cpuMs),
      messageChars: thousandChars,
      mbPerS: round(thousandChars / 1e6 / (summarizeTime.ms / 1000), 2),
    },
    assembly5000Messages: { smart: assembly(SMART_CONTEXT_PRESET), bridge: assembly(BRIDGE_PRESET) },
    fixtures: {
      keyFactShare: round(kept / facts, 3),
      keyFactsKept: `${kept}/${facts}`,
      compressionRatio: round(summary / original, 3),
      perFixture: fixtures.map((f) => ({
        transcript: f.transcript,
        keyFacts: `${f.kept.length}/${f.facts.length}`,
        missed: f.facts.filter((fact) => !f.kept.includes(fact)),
        compressionRatio: round(f.summaryChars / f.originalChars, 3),
      })),
    },
  };
}
