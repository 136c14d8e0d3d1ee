// Ingestion's parsing half: readTranscriptFrom + buildChunks + tokenizeForSearch over every fixture transcript
// (median of BENCH_RUNS passes), and one big transcript (the long spotter session repeated to ~30 MB) streamed
// once for MB/s and the RSS it adds. The index as a whole (SQLite, 10,000 sessions) is measured in index.bench.ts.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildChunks } from "../src/core/search/chunker.ts";
import { tokenizeForSearch } from "../src/core/search/tokens.ts";
import { readTranscriptFrom } from "../src/search/sync/read-transcript.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const FIXTURES = join(import.meta.dirname, "../tests/fixtures");
const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

function transcripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function ingest(paths: string[]) {
  let messages = 0;
  let lines = 0;
  let chunks = 0;
  for (const path of paths) {
    const read = await readTranscriptFrom(path, 0);
    const built = buildChunks(read.meta.sessionId ?? path, read.messages);
    for (const chunk of built) tokenizeForSearch(chunk.text);
    messages += read.messages.length;
    lines += read.lines;
    chunks += built.length;
  }
  return { messages, lines, chunks };
}

export async function run(): Promise<Record<string, unknown>> {
  const paths = transcripts(FIXTURES);
  const bytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
  const counts = await ingest(paths); // warm-up
  // CPU time as well as wall time: on a shared machine the wall clock mostly measures the neighbours.
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    await ingest(paths);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
    times.push(performance.now() - start);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 1;
  const ms = median(times);
  const cpuMs = median(cpuTimes);

  const dir = mkdtempSync(join(tmpdir(), "ingest-bench-"));
  const big = join(dir, "big.jsonl");
  const long = readFileSync(
    join(
      FIXTURES,
      "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
    ),
  );
  for (let i = 0; i < 10; i += 1) appendFileSync(big, long);
  const bigBytes = statSync(big).size;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  const cpu = process.cpuUsage();
  const bigCounts = await ingest([big]);
  const bigCpu = process.cpuUsage(cpu);
  const bigMs = performance.now() - start;
  const bigCpuMs = (bigCpu.user + bigCpu.system) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  rmSync(dir, { recursive: true });

  return {
    fixtures: {
      files: paths.length,
      mb: round(bytes / 1e6, 2),
      ...counts,
      medianMs: round(ms),
      messagesPerSecond: Math.round(counts.messages / (ms / 1000)),
      linesPerSecond: Math.round(counts.lines / (ms / 1000)),
      mbPerS: round(bytes / 1e6 / (ms / 1000)),
      medianCpuMs: round(cpuMs),
      messagesPerCpuSecond: Math.round(counts.messages / (cpuMs / 1000)),
    },
    bigTranscript: {
      mb: round(bigBytes / 1e6, 1),
      ...bigCounts,
      ms: round(bigMs),
      messagesPerSecond: Math.round(bigCounts.messages / (bigMs / 1000)),
      mbPerS: round(bigBytes / 1e6 / (bigMs / 1000)),
      cpuMs: round(bigCpuMs),
      messagesPerCpuSecond: Math.round(bigCounts.messages / (bigCpuMs / 1000)),
      rssAddedMb: round((peakRss - rssBefore) / 1e6),
    },
  };
}
