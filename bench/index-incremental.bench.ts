// The incremental index path at scale (issue 36): over an index of N synthetic sessions (CTX_BENCH_SYNC_SESSIONS,
// default 10,000; small ones, size factor 0.01, over 1,000 project folders as a heavy user's history spreads), the
// whole `ctx index` process with nothing new, and `ctx index --quiet --file` of one new session (what SessionEnd
// queues), each a fresh process of the BUILT dist/ctx.js (CTX_BENCH_CTX_BIN times another build, say the one before
// a change, over the same index); then the parts of a nothing-new sync timed in this process: discovery, the
// index's file stamps, the whole sync. The index is built once per corpus and schema version and kept beside the
// corpus in os.tmpdir(); each run's new session is removed from the corpus again afterwards.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SCHEMA_VERSION } from "../src/search/session-index/schema.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { IndexWriter } from "../src/search/session-index/writer.ts";
import { discoverTranscripts, listProjectFolders, projectFolderPath } from "../src/search/sync/discover.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { summarize } from "./process-timing.ts";
import { createRng } from "./synthetic-text.ts";
import { corpusVocabulary, ensureSyntheticCorpus, generateSession } from "./synthetic-transcripts.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = process.env.CTX_BENCH_CTX_BIN ?? join(here, "..", "dist", "ctx.js");
const preload = join(here, "max-rss-preload.mjs");
const SESSIONS = Number(process.env.CTX_BENCH_SYNC_SESSIONS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const BUDGETS = { nothingNewMs: "<= 1000 at 100,000 sessions", oneNewSessionMs: "<= 1000 at 100,000 sessions" };

interface Measured {
  wallMs: number;
  maxRssKiB: number;
  cpuMs: number;
  stdout: string;
}

/** One `ctx` process to its end, with its peak RSS and CPU time (bench/max-rss-preload.mjs). */
function runMeasured(args: string[], env: NodeJS.ProcessEnv): Measured {
  const rssFile = join(tmpdir(), `ctx-bench-sync-rss-${process.pid}.json`);
  const started = performance.now();
  const result = spawnSync(process.execPath, ["--import", preload, ctxBin, ...args], {
    env: { ...env, CTX_BENCH_RSS_FILE: rssFile },
    encoding: "utf8",
  });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`ctx ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  const usage = JSON.parse(readFileSync(rssFile, "utf8")) as {
    maxRssKiB: number;
    userCpuUs: number;
    systemCpuUs: number;
  };
  rmSync(rssFile, { force: true });
  return {
    wallMs,
    maxRssKiB: usage.maxRssKiB,
    cpuMs: (usage.userCpuUs + usage.systemCpuUs) / 1000,
    stdout: result.stdout,
  };
}

/** The index of the corpus, built with `ctx index` once per corpus and schema version. */
function ensureIndexHome(corpusRoot: string, files: number, env: NodeJS.ProcessEnv): string {
  const home = `${corpusRoot}-ctx-home-v${SCHEMA_VERSION}`;
  if (existsSync(join(home, "index.db"))) return home;
  process.stderr.write(`bench: indexing ${files} files with ${ctxBin} (once) …\n`);
  const building = `${home}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true, mode: 0o700 });
  const full = runMeasured(["index", "--json", "--claude-dir", corpusRoot], { ...env, CTX_HOME: building });
  writeFileSync(join(building, "full-index.json"), JSON.stringify({ ...full, stdout: JSON.parse(full.stdout) }));
  rmSync(home, { recursive: true, force: true });
  renameSync(building, home);
  return home;
}

const medianOf = (values: number[]) => summarize(values).medianMs;

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
  const corpus = ensureSyntheticCorpus({ sessions: SESSIONS, sizeFactor: 0.01, seed: 1, projects: 1_000 }, (line) =>
    process.stderr.write(`bench: ${line}\n`),
  );
  const baseEnv = { ...process.env, CTX_LOG_LEVEL: "silent", CLAUDE_CONFIG_DIR: corpus.root };
  const home = ensureIndexHome(corpus.root, corpus.files, baseEnv);
  const env = { ...baseEnv, CTX_HOME: home };
  // One round first, unmeasured: the page cache and Node's compile cache as a person's machine has them.
  runMeasured(["index", "--quiet"], env);

  const nothingNew = Array.from({ length: RUNS }, () => runMeasured(["index", "--json"], env));
  const summaries = nothingNew.map((run) => JSON.parse(run.stdout) as { filesIngested: number; durationMs: number });
  if (summaries.some((summary) => summary.filesIngested !== 0)) throw new Error("a nothing-new run ingested files");

  const vocabulary = corpusVocabulary(1);
  const rng = createRng(0x5e55);
  const project = join(corpus.root, "projects", "-home-dev-bench-new-session");
  mkdirSync(project, { recursive: true });
  const oneNew: Measured[] = [];
  for (let i = 0; i < RUNS; i++) {
    const session = generateSession(rng, vocabulary, "/home/dev/bench-new-session", 0.05);
    const path = join(project, `${session.sessionId}.jsonl`);
    writeFileSync(path, `${session.main.join("\n")}\n`);
    try {
      oneNew.push(runMeasured(["index", "--quiet", "--file", path], env));
    } finally {
      rmSync(path, { force: true });
    }
  }
  rmSync(project, { recursive: true, force: true });

  // The parts of a nothing-new sync, in this process.
  const parts = { discoverMs: [] as number[], fileStampsMs: [] as number[], syncMs: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    await discoverTranscripts(corpus.root);
    parts.discoverMs.push(performance.now() - started);
    const index = openSessionIndex(join(home, "index.db"));
    const folders = listProjectFolders(corpus.root).map((project) => projectFolderPath(corpus.root, project));
    try {
      started = performance.now();
      const writer = new IndexWriter(index); // a sync asks for each folder's stamps in turn
      for (const folder of folders) writer.fileStamps(folder);
      parts.fileStampsMs.push(performance.now() - started);
    } finally {
      index.close();
    }
    started = performance.now();
    await syncIndex({ claudeDir: corpus.root, dbPath: join(home, "index.db") });
    parts.syncMs.push(performance.now() - started);
  }

  const fullIndex = join(home, "full-index.json");
  return {
    ctxBin,
    budgets: BUDGETS,
    loadavg1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    corpus: { sessions: corpus.sessions, files: corpus.files, projects: corpus.projects, bytes: corpus.bytes },
    fullIndex: existsSync(fullIndex) ? JSON.parse(readFileSync(fullIndex, "utf8")) : null,
    nothingNew: {
      wall: summarize(nothingNew.map((run) => run.wallMs)),
      cpuMedianMs: medianOf(nothingNew.map((run) => run.cpuMs)),
      syncDurationMedianMs: medianOf(summaries.map((summary) => summary.durationMs)),
      maxRssMiB: Math.round(Math.max(...nothingNew.map((run) => run.maxRssKiB)) / 1024),
    },
    oneNewSession: {
      wall: summarize(oneNew.map((run) => run.wallMs)),
      cpuMedianMs: medianOf(oneNew.map((run) => run.cpuMs)),
      maxRssMiB: Math.round(Math.max(...oneNew.map((run) => run.maxRssKiB)) / 1024),
    },
    inProcessMedianMs: {
      discover: medianOf(parts.discoverMs),
      fileStamps: medianOf(parts.fileStampsMs),
      sync: medianOf(parts.syncMs),
    },
  };
}
