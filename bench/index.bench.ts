// Index at scale (docs/performance.md's budgets): a `ctx index` child process over a synthetic corpus (default 10,000
// sessions, ~1 GB; CTX_BENCH_INDEX_SESSIONS and CTX_BENCH_INDEX_SIZE shrink it for quick runs) gives the
// indexing throughput (messages/s) and its peak RSS; then search latency p50/p95 warm (in-process
// searchSessions) and cold (a fresh `ctx search --json` process per query). The corpus is cached in
// os.tmpdir() by scale and seed; the index is rebuilt on every run.
// The synthetic corpus carries about 10x the text per message of real transcripts, so the index size per 1,000
// messages is also measured on real-shaped ones (`realShaped`): the repo's real Claude Code fixture transcripts,
// and the LoCoMo chat sessions laid out as transcripts (when /work/shared/eval is there).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsup";
import { defaultConfig } from "../src/config/defaults.ts";
import { searchSessions } from "../src/search/search-sessions.ts";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { layOutClaudeDir } from "../tests/helpers/claude-projects.ts";
import { PROCESS_BUDGET_RATIOS, ratioToNode } from "./budgets.ts";
import { findLocomoDir } from "./locomo-data.ts";
import { percentiles, runMeasured, summarize } from "./process-timing.ts";
import { createRng, sentence, zipfIndex } from "./synthetic-text.ts";
import { corpusVocabulary, ensureSyntheticCorpus } from "./synthetic-transcripts.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = join(here, "..", "dist", "ctx.js");

const BUDGETS = {
  indexingMessagesPerSecond: ">= 2000",
  indexingPeakRssMiB: "<= 300",
  searchWarmP95Ms: "<= 100",
  searchColdMedianRatioToNode: `<= ${PROCESS_BUDGET_RATIOS.coldSearch}`,
};

function scaleFromEnv() {
  const sessions = Number(process.env.CTX_BENCH_INDEX_SESSIONS ?? 10_000);
  const sizeFactor = Number(process.env.CTX_BENCH_INDEX_SIZE ?? 1);
  const seed = Number(process.env.CTX_BENCH_SEED ?? 1);
  if (!(sessions > 0 && sizeFactor > 0))
    throw new Error("CTX_BENCH_INDEX_SESSIONS and CTX_BENCH_INDEX_SIZE must be > 0");
  return { sessions, sizeFactor, seed };
}

/** ~50 varied queries: short and long prose, identifiers, paths, rare and very common words. */
export function benchQueries(seed: number, count = 50): string[] {
  const vocabulary = corpusVocabulary(seed);
  const rng = createRng(seed ^ 0x5eed);
  const word = (from: number, to: number) => vocabulary.words[rng.int(from, to)] ?? "word";
  const queries: string[] = [];
  const kinds = [
    () => `${word(50, 2_000)} ${word(50, 2_000)}`,
    () => sentence(rng, vocabulary, rng.int(8, 16)).slice(0, -1),
    () => `how did we fix ${rng.pick(vocabulary.identifiers)}`,
    () => `${rng.pick(vocabulary.paths)} ${word(100, 3_000)}`,
    () => word(10_000, 29_000),
    () => `${word(0, 60)} ${vocabulary.words[zipfIndex(rng, 200)]}`,
  ];
  for (let i = 0; i < count; i++) queries.push((kinds[i % kinds.length] as () => string)());
  return queries;
}

/** bench/cold-search.ts bundled the way tsup.config.ts bundles ctx, so its start-up cost is comparable. */
async function bundleColdSearch(): Promise<string> {
  const outDir = join(here, "..", "node_modules", ".cache", "ctx-bench");
  await build({
    config: false,
    entry: { "cold-search": join(here, "cold-search.ts") },
    format: ["esm"],
    platform: "node",
    target: "node22",
    outDir,
    silent: true,
    noExternal: [/^zod\/mini$/],
    removeNodeProtocol: false,
  });
  return join(outDir, "cold-search.js");
}

/** Bytes of the index file (its WAL checkpointed) and what it holds. */
function indexFootprint(dbPath: string) {
  const index = openSessionIndex(dbPath);
  try {
    databaseOf(index).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const count = (sql: string) => Number((databaseOf(index).prepare(sql).get() as { n: number | null }).n ?? 0);
    return {
      bytes: index.stats().bytes,
      sessions: count("SELECT count(*) AS n FROM sessions"),
      messages: count("SELECT sum(message_count) AS n FROM sessions"),
      chunks: count("SELECT count(*) AS n FROM chunks"),
      // token_count is ceil(chars / 4); overlaps included.
      chunkChars: 4 * count("SELECT sum(token_count) AS n FROM chunks"),
    };
  } finally {
    index.close();
  }
}

/** Index size per 1,000 messages on real-shaped transcripts, less the size of an empty index. */
async function realShapedSizes(home: string) {
  const emptyPath = join(home, "empty.db");
  openSessionIndex(emptyPath).close();
  const empty = indexFootprint(emptyPath).bytes;
  const sources: Array<[string, string]> = [["claudeCodeFixtures", layOutClaudeDir(join(home, "fixtures"))]];
  const locomo = findLocomoDir();
  if (locomo !== null) sources.push(["locomo", join(locomo, "claude")]);
  const sizes: Record<string, unknown> = { emptyIndexKiB: Math.round(empty / 1024) };
  for (const [name, claudeDir] of sources) {
    const dbPath = join(home, `${name}.db`);
    await syncIndex({ claudeDir, dbPath });
    const footprint = indexFootprint(dbPath);
    sizes[name] = {
      ...footprint,
      chunkCharsPerMessage: Math.round(footprint.chunkChars / Math.max(1, footprint.messages)),
      indexKiBPer1000Messages: Math.round((footprint.bytes - empty) / 1024 / (footprint.messages / 1000)),
    };
  }
  return sizes;
}

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
  const scale = scaleFromEnv();
  const corpus = ensureSyntheticCorpus(scale, (line) => process.stderr.write(`bench: ${line}\n`));
  process.stderr.write(
    `bench: index scale ${scale.sessions} sessions, size factor ${scale.sizeFactor}, seed ${scale.seed}: ` +
      `${corpus.files} files, ${(corpus.bytes / 1024 ** 2).toFixed(0)} MiB (${corpus.root})\n`,
  );
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-index-"));
  const env = { ...process.env, CTX_HOME: home, CLAUDE_CONFIG_DIR: corpus.root, CTX_LOG_LEVEL: "silent" };
  try {
    const indexing = await runMeasured(["index", "--claude-dir", corpus.root], env);
    const dbPath = join(home, "index.db");
    const built = indexFootprint(dbPath);
    const index = openSessionIndex(dbPath, { readonly: true });
    const stats = index.stats();
    const messages = built.messages;
    const queries = benchQueries(scale.seed);
    const search = defaultConfig().search;
    const now = Date.now();
    for (const q of queries) await searchSessions(index, q, { limit: 5, search, now });
    const warm: number[] = [];
    const found: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const started = performance.now();
        const results = await searchSessions(index, q, { limit: 5, search, now });
        warm.push(performance.now() - started);
        if (round === 0) found.push(results.length);
      }
    }
    index.close();

    const help = spawnSync(process.execPath, [ctxBin, "--help"], { env, encoding: "utf8" }).stdout;
    const hasSearchCommand = /^\s+search\b/m.test(help);
    const cold: number[] = [];
    const coldRss: number[] = [];
    const coldScript = hasSearchCommand ? ctxBin : await bundleColdSearch();
    for (const q of queries.slice(0, 20)) {
      const result = hasSearchCommand
        ? await runMeasured(["search", q, "--json", "--limit", "5"], env)
        : await runMeasured([dbPath, q], env, coldScript);
      cold.push(result.wallMs);
      coldRss.push(result.maxRssKiB / 1024);
    }
    const nodeFloor = summarize(
      Array.from({ length: 5 }, () => {
        const started = performance.now();
        spawnSync(process.execPath, ["-e", "0"]);
        return performance.now() - started;
      }),
    );
    const coldPercentiles = percentiles(cold);
    return {
      budgets: BUDGETS,
      corpus: { ...corpus, mib: Math.round(corpus.bytes / 1024 ** 2) },
      indexing: {
        sessions: stats.sessions,
        chunks: stats.chunks,
        messages,
        wallMs: Math.round(indexing.wallMs),
        messagesPerSecond: Math.round(messages / (indexing.wallMs / 1000)),
        mibPerSecond: Math.round((corpus.bytes / 1024 ** 2 / (indexing.wallMs / 1000)) * 10) / 10,
        peakRssMiB: Math.round(indexing.maxRssKiB / 1024),
        cpuSeconds: Math.round((indexing.userCpuUs + indexing.systemCpuUs) / 1e5) / 10,
        // CPU time is steadier than wall time on a shared machine (see loadAverage).
        messagesPerCpuSecond: Math.round(messages / ((indexing.userCpuUs + indexing.systemCpuUs) / 1e6)),
        indexMiB: Math.round(stats.bytes / 1024 ** 2),
        indexKiBPer1000Messages: Math.round(stats.bytes / 1024 / (messages / 1000)),
        corpusKiBPer1000Messages: Math.round(corpus.bytes / 1024 / (messages / 1000)),
        chunkCharsPerMessage: Math.round(built.chunkChars / messages),
      },
      realShaped: await realShapedSizes(home),
      searchWarm: {
        queries: queries.length,
        ...percentiles(warm),
        meanResults: found.reduce((a, b) => a + b, 0) / found.length,
      },
      searchCold: {
        command: hasSearchCommand
          ? "ctx search <q> --json --limit 5"
          : "`ctx search` is not in this build yet: bench/cold-search.ts bundled like ctx (open index, searchSessions, print)",
        ...coldPercentiles,
        ratioToNode: {
          p50: ratioToNode(coldPercentiles.p50Ms, nodeFloor.medianMs),
          p95: ratioToNode(coldPercentiles.p95Ms, nodeFloor.medianMs),
        },
        peakRssMiB: Math.round(Math.max(...coldRss)),
      },
      nodeStartMs: nodeFloor.medianMs,
      loadAverage: loadavg().map((n) => Math.round(n * 10) / 10),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
