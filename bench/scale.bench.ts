// `pnpm bench scale`: ctx at 10,000, 30,000 and 100,000 sessions (issue 36; docs/performance.md "At scale"). For each
// size, a real-shaped corpus (bench/scale-corpus.ts, cached under os.tmpdir()) is indexed by the built CLI, then:
// the index on disk per 1,000 messages; `ctx index` with nothing new; one new session queued by the SessionEnd hook
// until it is searchable; cold `ctx search --json`; `ctx stats`; `ctx serve` over a real MCP client (warm
// `ctx_fork_detect`, its memory and inotify watches, 1,000 new files written in a burst and whether every one gets
// indexed); the hooks against a 1,000-session index (paired); retrieval of LoCoMo's dev split planted among them
// against the same questions over the dev split alone. The smallest size also kills a full index part-way and
// measures the second run that finishes it. Knobs: CTX_BENCH_SCALE_SIZES (comma list, default 10000,30000,100000),
// CTX_BENCH_SEED, CTX_BENCH_SCALE_KEEP=1 keeps the homes (printed) for a look afterwards, CTX_BENCH_SCALE_TEAM=0 leaves
// out the team server's figures (bench/team-scale.bench.ts, run last with its own knobs).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../src/config/defaults.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { findLocomoDir, type LocomoData, loadLocomo } from "./locomo-data.ts";
import { percentiles, runMeasured, summarize } from "./process-timing.ts";
import { hitAtK } from "./retrieval-metrics.ts";
import {
  ensureScaleCorpus,
  removeNewSessions,
  type ScaleCorpus,
  type WrittenSession,
  writeNewSessions,
} from "./scale-corpus.ts";
import { pairedHooks } from "./scale-hooks.ts";
import { inotifyWatches, processMemory, startServe, waitIndexed, warmForkDetect } from "./scale-serve.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = join(here, "..", "dist", "ctx.js");
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

const GOALS = {
  indexMessagesPerSecond: ">= 10000",
  indexPeakRssMiB: "<= 300",
  indexKiBPer1000Messages: "<= 300",
  nothingNewIndexMs: "<= 1000",
  oneNewSessionSearchableMs: "<= 1000 after SessionEnd queues it",
  coldSearchP95Ms: "<= 500, no empty answer",
  warmForkDetectP95Ms: "<= 100",
  plantedHitAt5: "within 0.02 of the dev split alone",
  serveRssMiB: "<= 200",
  serveInotifyWatches: "<= folders",
  serveMissedOf1000NewFiles: "0",
  statsMs: "<= 500",
  pickerFirstScreenMs: "<= 500",
  hooksRatioTo1000Sessions: "<= 1.05",
  teamSearchWarmP95Ms: "<= 150 (10 members x 10,000 sessions)",
  teamSearchColdP95Ms: "<= 500",
  teamPushOneSessionMs: "<= 2000",
};

const sizesFromEnv = () =>
  (process.env.CTX_BENCH_SCALE_SIZES ?? "10000,30000,100000")
    .split(",")
    .map((n) => Number(n.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

interface Home {
  home: string;
  env: NodeJS.ProcessEnv;
  dbPath: string;
}

function homeFor(corpus: ScaleCorpus, name: string): Home {
  const home = mkdtempSync(join(tmpdir(), `ctx-bench-scale-${name}-`));
  return {
    home,
    dbPath: join(home, "index.db"),
    env: {
      ...process.env,
      CTX_HOME: home,
      CLAUDE_CONFIG_DIR: corpus.claudeDir,
      CTX_LOG_LEVEL: "silent",
      CTX_ARCHIVE__ENABLED: "false",
    },
  };
}

/** The ids among `ids` that the index holds. */
function indexedOf(dbPath: string) {
  return (ids: readonly string[]): Set<string> => {
    const found = new Set<string>();
    let index: ReturnType<typeof openSessionIndex>;
    try {
      index = openSessionIndex(dbPath, { readonly: true });
    } catch {
      return found;
    }
    try {
      for (const id of ids) if (index.getSession(id) !== null) found.add(id);
    } finally {
      index.close();
    }
    return found;
  };
}

function footprint(dbPath: string) {
  const index = openSessionIndex(dbPath);
  try {
    databaseOf(index).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const row = databaseOf(index)
      .prepare("SELECT count(*) AS sessions, sum(message_count) AS messages FROM sessions")
      .get() as {
      sessions: number;
      messages: number;
    };
    // Every message the index holds, its subagents' transcripts' too (sessions.message_count counts the main ones).
    const held = databaseOf(index).prepare("SELECT sum(messages) AS messages FROM files").get() as { messages: number };
    return { bytes: statSync(dbPath).size, sessions: row.sessions, messages: row.messages, held: held.messages };
  } finally {
    index.close();
  }
}

/** Sessions a size's run wrote into its corpus: taken out again when the size is done, so the cached corpus stays N. */
const added: WrittenSession[] = [];

function addSessions(corpus: ScaleCorpus, first: number, count: number, newProjectEvery = 0): WrittenSession[] {
  const written = writeNewSessions(corpus, first, count, newProjectEvery);
  added.push(...written);
  return written;
}

const median = (samples: number[]) => summarize(samples).medianMs;

async function timesOf(times: number, args: string[], env: NodeJS.ProcessEnv) {
  const wall: number[] = [];
  let rss = 0;
  for (let i = 0; i < times; i++) {
    const result = await runMeasured(args, env);
    wall.push(result.wallMs);
    rss = Math.max(rss, result.maxRssKiB);
  }
  return {
    runs: times,
    medianMs: Math.round(median(wall)),
    // The spread: a cost that is half `stat` moves with the kernel's caches from run to run.
    minMs: Math.round(Math.min(...wall)),
    maxMs: Math.round(Math.max(...wall)),
    peakRssMiB: Math.round(rss / 1024),
  };
}

/** SessionEnd on a new session, then how long until the index holds it. */
async function oneNewSession(corpus: ScaleCorpus, home: Home, number: number) {
  const [session] = addSessions(corpus, number, 1);
  if (session === undefined) throw new Error("no session written");
  const project = join(home.home, "ended-project");
  mkdirSync(join(project, ".git"), { recursive: true });
  const input = JSON.stringify({
    session_id: session.sessionId,
    transcript_path: session.path,
    cwd: project,
    hook_event_name: "SessionEnd",
    reason: "exit",
  });
  const started = performance.now();
  const hook = spawnSync(process.execPath, [ctxBin, "hook", "session-end"], {
    env: { ...home.env, CLAUDE_PROJECT_DIR: project },
    input,
  });
  const hookMs = performance.now() - started;
  if (hook.status !== 0) throw new Error(`session-end exited ${hook.status}: ${hook.stderr}`);
  const waited = await waitIndexed([session.sessionId], indexedOf(home.dbPath), 30_000);
  return {
    hookMs: Math.round(hookMs),
    searchableAfterQueuedMs: Math.round(waited.seconds * 1000),
    missed: waited.missed,
  };
}

function locomoQueries(data: LocomoData | null) {
  return (data?.queries ?? []).filter((q) => q.category !== 5);
}

/** Every `step`-th dev question: the cold and warm latency samples (real questions, planted sessions to find). */
function sampleQueries(data: LocomoData | null, count: number): string[] {
  const all = locomoQueries(data);
  if (all.length === 0) return ["how did we fix the failing test", "docker compose setup", "router ssh config"];
  const step = Math.max(1, Math.floor(all.length / count));
  return all
    .filter((_, i) => i % step === 0)
    .slice(0, count)
    .map((q) => q.query);
}

/** Makes the index's last sync two minutes old: the next search catches up first (fork-detect.ts FRESH_ENOUGH_MS). */
function makeStale(dbPath: string): void {
  const index = openSessionIndex(dbPath);
  try {
    databaseOf(index)
      .prepare("UPDATE meta SET value = ? WHERE key = 'last_sync_at'")
      .run(String(Date.now() - 120_000));
  } finally {
    index.close();
  }
}

async function coldSearch(home: Home, queries: readonly string[], stale = false) {
  const samples: number[] = [];
  let empty = 0;
  for (const query of queries) {
    if (stale) makeStale(home.dbPath);
    const result = await runMeasured(["search", query, "--json", "--limit", "5"], home.env);
    samples.push(result.wallMs);
    if ((JSON.parse(result.stdout) as { results: unknown[] }).results.length === 0) empty += 1;
  }
  return { ...percentiles(samples), emptyAnswers: empty };
}

const shellWord = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * The picker's first screen: `ctx search <q>` on a terminal (util-linux `script` gives it one) until the picker's
 * question is on the screen; the process is then killed, as a person pressing Ctrl-C would end it.
 */
async function pickerFirstScreen(home: Home, queries: readonly string[]) {
  const samples: number[] = [];
  for (const query of queries) {
    // A terminal of 120 columns: `script`'s own has none, and the picker would wrap every character.
    const command = `stty cols 120 rows 40 && ${[process.execPath, ctxBin, "search", query].map(shellWord).join(" ")}`;
    const started = performance.now();
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: { ...home.env, TERM: "xterm-256color", COLUMNS: "120", LINES: "40" },
      stdio: ["pipe", "pipe", "ignore"],
      detached: true,
    });
    const shown = await new Promise<number | null>((resolve) => {
      let screen = "";
      const timer = setTimeout(() => resolve(null), 30_000);
      child.stdout.on("data", (data: Buffer) => {
        screen += data.toString();
        if (screen.includes("pick one to fork")) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      });
      child.on("close", () => {
        clearTimeout(timer);
        resolve(null);
      });
    });
    try {
      process.kill(-(child.pid ?? 0), "SIGKILL");
    } catch {
      // Already gone.
    }
    if (shown === null) throw new Error(`the picker did not show for ${JSON.stringify(query)}`);
    samples.push(shown);
  }
  return percentiles(samples);
}

/** hit@1 and hit@5 of the dev split's questions (global, real clock), through runForkDetect as `ctx search` runs it. */
async function retrieval(home: Home, data: LocomoData, claudeDir: string) {
  const config = defaultConfig();
  let hit1 = 0;
  let hit5 = 0;
  let empty = 0;
  const queries = locomoQueries(data);
  const started = performance.now();
  for (const q of queries) {
    const result = await runForkDetect(
      { query: q.query, limit: 5 },
      { config, env: home.env, projectRoot: home.home, now: Date.now, claudeDir, refreshBudgetMs: 0 },
    );
    const ranked = result.candidates.map((c) => c.sessionId);
    if (ranked.length === 0) empty += 1;
    hit1 += hitAtK(ranked, q.relevant_session_ids, 1);
    hit5 += hitAtK(ranked, q.relevant_session_ids, 5);
  }
  const round = (n: number) => Math.round((n / queries.length) * 1000) / 1000;
  return {
    questions: queries.length,
    hitAt1: round(hit1),
    hitAt5: round(hit5),
    emptyAnswers: empty,
    msPerQuery: Math.round((performance.now() - started) / queries.length),
  };
}

/** A full index killed once it has written some sessions, then a second run: what it had to do and what it ended with. */
async function killedAndResumed(corpus: ScaleCorpus) {
  const home = homeFor(corpus, "resume");
  try {
    const child = spawn(process.execPath, [ctxBin, "index", "--quiet"], { env: home.env, stdio: "ignore" });
    const target = Math.round(corpus.sessions / 3);
    let before = 0;
    while (child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      before = indexedCount(home.dbPath);
      if (before >= target) break;
    }
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("close", resolve));
    before = indexedCount(home.dbPath);
    const second = await runMeasured(["index", "--json"], home.env);
    const summary = JSON.parse(second.stdout) as { filesIngested: number; filesSkippedUnchanged: number };
    return {
      sessionsWhenKilled: before,
      secondRun: {
        wallMs: Math.round(second.wallMs),
        filesIngested: summary.filesIngested,
        filesSkippedUnchanged: summary.filesSkippedUnchanged,
      },
      sessionsAfter: indexedCount(home.dbPath),
    };
  } finally {
    rmSync(home.home, { recursive: true, force: true });
  }
}

function indexedCount(dbPath: string): number {
  try {
    const index = openSessionIndex(dbPath, { readonly: true });
    try {
      return index.sessionCount();
    } finally {
      index.close();
    }
  } catch {
    return 0;
  }
}

function folderCount(claudeDir: string): number {
  const entries = readdirSync(join(claudeDir, "projects"), { recursive: true, withFileTypes: true });
  return 1 + entries.filter((entry) => entry.isDirectory()).length;
}

async function serveFigures(corpus: ScaleCorpus, home: Home, queries: readonly string[], firstNew: number) {
  const serve = await startServe(home.env, home.home);
  try {
    // Watching alone first (its watches set up, the start-up sync done), then after a round of searches.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const watching = processMemory(serve.pid);
    const watches = inotifyWatches(serve.pid);
    const folders = folderCount(corpus.claudeDir);
    const warm = await warmForkDetect(serve, queries);
    const searched = processMemory(serve.pid);
    const written = addSessions(corpus, firstNew, 1_000, 20);
    const newFiles = written.length + written.reduce((sum, s) => sum + s.subagentFiles, 0);
    const caught = await waitIndexed(
      written.map((s) => s.sessionId),
      indexedOf(home.dbPath),
      300_000,
    );
    return {
      warmForkDetect: warm,
      serve: {
        watchingRssMiB: watching.rssMiB,
        afterSearchesRssMiB: searched.rssMiB,
        peakRssMiB: processMemory(serve.pid).peakRssMiB,
        inotifyWatches: watches,
        folders,
        newFiles,
        newSessions: written.length,
        allIndexedAfterSeconds: caught.seconds,
        missedSessions: caught.missed,
      },
    };
  } finally {
    await serve.close();
  }
}

async function measureSize(
  sessions: number,
  seed: number,
  small: { home: Home; claudeDir: string } | null,
  locomo: LocomoData | null,
  alone: Awaited<ReturnType<typeof retrieval>> | null,
) {
  const corpus = await ensureScaleCorpus({ sessions, seed }, log);
  log(
    `scale ${sessions}: corpus ${corpus.files} files, ${Math.round(corpus.bytes / 1024 ** 2)} MiB, ${corpus.messages} messages (${corpus.claudeDir})`,
  );
  const home = homeFor(corpus, String(sessions));
  const out: Record<string, unknown> = {
    corpus: { ...corpus, mib: Math.round(corpus.bytes / 1024 ** 2) },
  };
  try {
    log(`scale ${sessions}: full index`);
    const full = await runMeasured(["index", "--quiet"], home.env);
    const disk = footprint(home.dbPath);
    out.fullIndex = {
      wallMs: Math.round(full.wallMs),
      sessions: disk.sessions,
      messages: disk.messages,
      messagesPerSecond: Math.round(disk.messages / (full.wallMs / 1000)),
      messagesPerCpuSecond: Math.round(disk.messages / ((full.userCpuUs + full.systemCpuUs) / 1e6)),
      peakRssMiB: Math.round(full.maxRssKiB / 1024),
      indexMiB: Math.round(disk.bytes / 1024 ** 2),
      indexKiBPer1000Messages: Math.round(disk.bytes / 1024 / (disk.messages / 1000)),
      messagesWithSubagents: disk.held,
      indexKiBPer1000MessagesWithSubagents: Math.round(disk.bytes / 1024 / (disk.held / 1000)),
    };
    log(`scale ${sessions}: nothing new, stats, one new session`);
    out.nothingNewIndex = await timesOf(5, ["index", "--quiet"], home.env);
    out.stats = await timesOf(3, ["stats", "--json"], home.env);
    out.pickerFirstScreen = await pickerFirstScreen(home, sampleQueries(locomo, 5));
    out.oneNewSession = await oneNewSession(corpus, home, sessions + 2_000_000);
    log(`scale ${sessions}: cold search`);
    const queries = sampleQueries(locomo, 30);
    // Right after an index (the watcher's case: fresh), and stale (the last sync over a minute old: a catch-up first).
    out.coldSearch = await coldSearch(home, queries.slice(0, 20));
    out.coldSearchStale = await coldSearch(home, queries.slice(20, 25), true);
    if (locomo !== null) {
      log(`scale ${sessions}: retrieval of the planted dev split`);
      const planted = await retrieval(home, locomo, corpus.claudeDir);
      out.retrieval = {
        planted,
        devSplitAlone: alone,
        hitAt5Drop: alone === null ? null : Math.round((alone.hitAt5 - planted.hitAt5) * 1000) / 1000,
      };
    }
    if (small !== null) {
      log(`scale ${sessions}: hooks, paired with 1,000 sessions`);
      const transcript = addSessions(corpus, sessions + 3_000_000, 1)[0]?.path ?? "";
      out.hooks = pairedHooks(
        home.home,
        { home: small.home.home, claudeDir: small.claudeDir },
        {
          home: home.home,
          claudeDir: corpus.claudeDir,
        },
        transcript,
      );
    }
    log(`scale ${sessions}: ctx serve`);
    Object.assign(out, await serveFigures(corpus, home, queries, sessions + 1_000_000));
  } finally {
    removeNewSessions(added.splice(0));
    if (process.env.CTX_BENCH_SCALE_KEEP === "1") log(`scale ${sessions}: kept ${home.home}`);
    else rmSync(home.home, { recursive: true, force: true });
  }
  return out;
}

export async function run(): Promise<Record<string, unknown>> {
  const sizes = sizesFromEnv();
  const seed = Number(process.env.CTX_BENCH_SEED ?? 1);
  const started = performance.now();
  const locomoDir = findLocomoDir();
  const locomo = locomoDir === null ? null : loadLocomo(locomoDir);
  let alone: Awaited<ReturnType<typeof retrieval>> | null = null;
  if (locomo !== null) {
    const home = mkdtempSync(join(tmpdir(), "ctx-bench-scale-alone-"));
    const env = { ...process.env, CTX_HOME: home, CLAUDE_CONFIG_DIR: locomo.claudeDir, CTX_LOG_LEVEL: "silent" };
    await runMeasured(["index", "--quiet"], env);
    alone = await retrieval({ home, env, dbPath: join(home, "index.db") }, locomo, locomo.claudeDir);
    rmSync(home, { recursive: true, force: true });
  }
  log("scale: the 1,000-session index the hooks are paired with");
  const smallCorpus = await ensureScaleCorpus({ sessions: 1_000, seed }, log);
  const smallHome = homeFor(smallCorpus, "1000");
  await runMeasured(["index", "--quiet"], smallHome.env);
  const nodeFloor = summarize(
    Array.from({ length: 5 }, () => {
      const t = performance.now();
      spawnSync(process.execPath, ["-e", "0"]);
      return performance.now() - t;
    }),
  );
  const bySize: Record<string, unknown> = {};
  try {
    const first = sizes[0];
    if (first !== undefined) {
      log(`scale ${first}: a full index killed part-way, then resumed`);
      bySize.resumable = await killedAndResumed(await ensureScaleCorpus({ sessions: first, seed }, log));
    }
    for (const sessions of sizes) {
      bySize[String(sessions)] = await measureSize(
        sessions,
        seed,
        { home: smallHome, claudeDir: smallCorpus.claudeDir },
        locomo,
        alone,
      );
    }
  } finally {
    rmSync(smallHome.home, { recursive: true, force: true });
  }
  // The team server at 10 members x 1,000 and x 10,000 sessions (bench/team-scale.bench.ts, its own knobs): a throwaway
  // PostgreSQL, 20-30 minutes of filling on this machine; CTX_BENCH_SCALE_TEAM=0 leaves it out.
  if (process.env.CTX_BENCH_SCALE_TEAM !== "0") {
    log("scale: the team server (bench/team-scale.bench.ts)");
    bySize.team = await (await import("./team-scale.bench.ts")).run();
  }
  return {
    goals: GOALS,
    sizes,
    seed,
    nodeStartMs: nodeFloor.medianMs,
    ...bySize,
    totalMinutes: Math.round((performance.now() - started) / 6_000) / 10,
    loadAverage: loadavg().map((n) => Math.round(n * 10) / 10),
  };
}
