// `ctx serve` watching a large ~/.claude/projects (issue 36's goal: RSS ≤ 200 MB, inotify watches ≤ the folders,
// no missed session after 1,000 new files). The built server runs over a Claude folder of CTX_BENCH_WATCH_SESSIONS
// sessions (default 100,000) spread over CTX_BENCH_WATCH_PROJECTS project folders (one per 100 sessions): the
// synthetic corpus at a small size factor, hard-linked into that many folders (watching cares about folders and
// files, not their text), or any Claude folder named by CTX_BENCH_CLAUDE_DIR (bench/scale-corpus.ts's). Measured:
// the time until the server's inotify watches stop changing (its initial scan), the watches (from
// /proc/<pid>/fdinfo), RSS at idle; then a burst of CTX_BENCH_WATCH_NEW new transcripts (1,000: some in new project
// folders, some subagents in new session folders) and the time until every one is in the index, written by the
// server's background `ctx index` child. CTX_BENCH_WATCH_BIN runs another build (e.g. a copy of the one before).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { SCHEMA_VERSION } from "../src/search/session-index/schema.ts";
import { inotifyWatchCount, residentBytes } from "../tests/helpers/inotify-watches.ts";
import { createRng } from "./synthetic-text.ts";
import { corpusVocabulary, ensureSyntheticCorpus, generateSession } from "./synthetic-transcripts.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = process.env.CTX_BENCH_WATCH_BIN ?? join(here, "..", "dist", "ctx.js");
const MiB = 1024 * 1024;
const BUDGETS = { serverRssMiB: "<= 200", watches: "<= folders", missedAfterBurst: "0" };

function settings() {
  const sessions = Number(process.env.CTX_BENCH_WATCH_SESSIONS ?? 100_000);
  const projects = Number(process.env.CTX_BENCH_WATCH_PROJECTS ?? Math.ceil(sessions / 100));
  const burst = Number(process.env.CTX_BENCH_WATCH_NEW ?? 1_000);
  if (!(sessions > 0 && projects > 0 && burst > 0)) throw new Error("CTX_BENCH_WATCH_* must be > 0");
  return { sessions, projects, burst };
}

/** The synthetic corpus re-laid over `projects` folders by hard links, a session's subagents beside it (cached). */
function layOutCorpus(sessions: number, projects: number): string {
  const corpus = ensureSyntheticCorpus({ sessions, sizeFactor: 0.01, seed: 1 }, (line) =>
    process.stderr.write(`${line}\n`),
  );
  const claudeDir = `${corpus.root}-watch-${projects}`;
  if (existsSync(join(claudeDir, "laid-out"))) return claudeDir;
  rmSync(claudeDir, { recursive: true, force: true });
  let next = 0;
  for (const project of readdirSync(join(corpus.root, "projects"))) {
    const from = join(corpus.root, "projects", project);
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const sessionId = entry.name.slice(0, -".jsonl".length);
      const to = join(claudeDir, "projects", `-home-dev-project-${next++ % projects}`);
      mkdirSync(to, { recursive: true });
      linkSync(join(from, entry.name), join(to, entry.name));
      const subagents = join(from, sessionId, "subagents");
      if (!existsSync(subagents)) continue;
      mkdirSync(join(to, sessionId, "subagents"), { recursive: true });
      for (const name of readdirSync(subagents))
        linkSync(join(subagents, name), join(to, sessionId, "subagents", name));
    }
  }
  writeFileSync(join(claudeDir, "laid-out"), "");
  return claudeDir;
}

function countFolders(dir: string): number {
  let folders = 1;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) folders += countFolders(join(dir, entry.name));
  }
  return folders;
}

/** An index of the whole folder, built once per folder and schema and copied for each run. */
function indexedCtxHome(claudeDir: string): string {
  const base = `${claudeDir}-index-v${SCHEMA_VERSION}`;
  if (!existsSync(join(base, "done"))) {
    rmSync(base, { recursive: true, force: true });
    mkdirSync(base, { recursive: true });
    process.stderr.write(`indexing ${claudeDir} once into ${base} …\n`);
    const result = spawnSync(process.execPath, [ctxBin, "index", "--quiet", "--json"], {
      env: { ...process.env, CTX_HOME: base, CLAUDE_CONFIG_DIR: claudeDir, HOME: base },
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (result.status !== 0) throw new Error(`ctx index exited ${result.status}`);
    writeFileSync(join(base, "done"), "");
  }
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-watch-home-"));
  for (const name of ["index.db", "index.db-wal"]) {
    if (existsSync(join(base, name))) cpSync(join(base, name), join(home, name));
  }
  return home;
}

/** Writes `count` new transcripts at once: most in existing folders, a fifth in new project folders, a fifth subagents. */
function writeBurst(claudeDir: string, count: number): { paths: string[]; created: string[]; newProjects: number } {
  const rng = createRng(36);
  const vocabulary = corpusVocabulary(1);
  const projectsDir = join(claudeDir, "projects");
  const existing = readdirSync(projectsDir).sort();
  const paths: string[] = [];
  const created: string[] = [];
  const lines = () => `${generateSession(rng, vocabulary, "/home/dev/burst", 0.01).main.join("\n")}\n`;
  const newProjects = Math.max(1, Math.round(count / 20));
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    let folder = join(projectsDir, existing[i % existing.length] as string);
    if (kind === 1) {
      folder = join(projectsDir, `-home-dev-burst-${i % newProjects}`);
      if (!existsSync(folder)) created.push(folder);
    }
    mkdirSync(folder, { recursive: true });
    const sessionId = rng.uuid();
    if (kind === 2) {
      // A subagent of a new session: its main file first, as Claude Code writes them.
      const main = join(folder, `${sessionId}.jsonl`);
      writeFileSync(main, lines());
      paths.push(main);
      created.push(main, join(folder, sessionId));
      mkdirSync(join(folder, sessionId, "subagents"), { recursive: true });
      const agent = join(folder, sessionId, "subagents", `agent-a${rng.uuid().slice(0, 8)}.jsonl`);
      writeFileSync(agent, lines());
      paths.push(agent);
      i++;
      continue;
    }
    const file = join(folder, `${sessionId}.jsonl`);
    writeFileSync(file, lines());
    paths.push(file);
    created.push(file);
  }
  return { paths, created, newProjects };
}

async function sleep(ms: number) {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the server's watch count holds still for `stableMs` (its initial scan is done); returns the time. */
async function untilWatchesSettle(pid: number, started: number, stableMs: number): Promise<number> {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const now = inotifyWatchCount(pid);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (now > 0 && Date.now() - since >= stableMs) {
      return since - started;
    }
    await sleep(50);
  }
}

function missingFromIndex(dbPath: string, paths: string[]): string[] {
  if (!existsSync(dbPath)) return paths;
  const db = new DatabaseSync(dbPath, { readOnly: true, timeout: 5_000 });
  try {
    const known = db.prepare("SELECT 1 AS found FROM files WHERE path = ?");
    return paths.filter((path) => known.get(path) === undefined);
  } catch {
    return paths; // the first sync is still creating the tables
  } finally {
    db.close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const wanted = settings();
  const claudeDir = process.env.CTX_BENCH_CLAUDE_DIR ?? layOutCorpus(wanted.sessions, wanted.projects);
  const projectsDir = join(claudeDir, "projects");
  const corpus = {
    claudeDir,
    projectFolders: readdirSync(projectsDir).length,
    folders: countFolders(projectsDir),
  };
  const ctxHome = indexedCtxHome(claudeDir);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: ctxHome,
    CTX_HOME: ctxHome,
    CLAUDE_CONFIG_DIR: claudeDir,
    CLAUDE_PROJECT_DIR: ctxHome,
    CTX_INDEX__QUIET_MS: "500",
    CTX_INDEX__SYNC_ON_START: "false",
    CTX_LOG_LEVEL: "debug",
  };
  const started = Date.now();
  const server: ChildProcess = spawn(process.execPath, [ctxBin, "serve"], { cwd: ctxHome, env, stdio: "pipe" });
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const pid = server.pid as number;
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, residentBytes(pid))), 100);
  let burst: ReturnType<typeof writeBurst> | undefined;
  try {
    // chokidar (the build before) pauses between bursts of watches while it stats files: 10 s still means done.
    const readyMs = await untilWatchesSettle(pid, started, Number(process.env.CTX_BENCH_WATCH_STABLE_MS ?? 10_000));
    const logged = /watching (\d+) folders? under .* \((\d+) ms\)/.exec(stderr);
    await sleep(2_000);
    const idle = { watches: inotifyWatchCount(pid), rssMiB: residentBytes(pid) / MiB };
    const burstStarted = Date.now();
    burst = writeBurst(claudeDir, wanted.burst);
    const writtenMs = Date.now() - burstStarted;
    const dbPath = join(ctxHome, "index.db");
    let missing = burst.paths;
    const deadline = Date.now() + 30 * 60_000;
    while (missing.length > 0 && Date.now() < deadline && server.exitCode === null) {
      await sleep(1_000);
      missing = missingFromIndex(dbPath, missing);
    }
    const indexedMs = Date.now() - burstStarted;
    await sleep(1_000);
    return {
      corpus: { ...corpus, sessions: process.env.CTX_BENCH_CLAUDE_DIR ? undefined : wanted.sessions },
      server: {
        readyMs,
        watcherReadyLoggedMs: logged ? Number(logged[2]) : undefined,
        watches: idle.watches,
        rssIdleMiB: Math.round(idle.rssMiB * 10) / 10,
      },
      burst: {
        files: burst.paths.length,
        newProjectFolders: burst.newProjects,
        writtenMs,
        allIndexedMs: missing.length === 0 ? indexedMs : null,
        missed: missing.length,
        missedSample: missing.slice(0, 5),
        watchesAfter: inotifyWatchCount(pid),
        foldersAfter: countFolders(projectsDir),
        rssAfterMiB: Math.round((residentBytes(pid) / MiB) * 10) / 10,
      },
      rssPeakMiB: Math.round((peakRss / MiB) * 10) / 10,
      budgets: BUDGETS,
      serverLogTail: missing.length === 0 ? undefined : stderr.slice(-2_000),
    };
  } finally {
    clearInterval(sampler);
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.stdin?.end();
    const killer = setTimeout(() => server.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killer);
    for (const path of burst?.created ?? []) rmSync(path, { recursive: true, force: true });
    rmSync(ctxHome, { recursive: true, force: true });
  }
}
