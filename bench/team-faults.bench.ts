// Team faults (#23 "Faults", docs/team.md "Faults"): one member with BENCH_FAULTS_SESSIONS real-shaped synthetic
// sessions (400; bench/synthetic-transcripts.ts, size factor 0.25), indexed with every project shared, so all of it
// waits in the outbox. Then, with the shipped CLI (dist/ctx.js) against a throwaway local cluster:
//   1. `ctx team push` starts; once the server holds some of it, the server is restarted (fast shutdown, started
//      again at once): that push is cut off;
//   2. `ctx team push` again; once it is under way the server is stopped for BENCH_FAULTS_OUTAGE_S seconds (60).
//      Meanwhile cold `ctx search --team --json` processes run one after another: each must answer from the local
//      index (results on stdout, exit 0) with exactly one notice line on stderr; their wall times give max and p95;
//   3. the server is started and `ctx team push` drains the outbox.
// A stopped server refuses at once (ECONNREFUSED); a server that does not answer at all costs the connect limit, so
// BENCH_FAULTS_SILENT_RUNS (10) more cold searches go to a listener that accepts and never replies.
// Then every session must be on the server exactly once: the server's sessions, and each one's chunk count, equal
// the local index's (none lost, none duplicated), one transcript each, and the outbox empty.
// `pnpm bench team-faults`; `pnpm build` first.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { outboxDepth } from "../src/search/session-index/team-outbox.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { addSharedProject } from "../src/store/team/team-state.ts";
import { addMember, migrateTeam } from "../src/team/service.ts";
import { type PgCluster, startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { corpusVocabulary, writeSyntheticCorpus } from "./synthetic-transcripts.ts";

const SESSIONS = Number(process.env.BENCH_FAULTS_SESSIONS ?? 1_500);
const OUTAGE_S = Number(process.env.BENCH_FAULTS_OUTAGE_S ?? 60);
const SILENT_RUNS = Number(process.env.BENCH_FAULTS_SILENT_RUNS ?? 10);
const SEARCH_GOAL_MS = 2_500;
const SEED = 4_242;
const CTX_BIN = fileURLToPath(new URL("../dist/ctx.js", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

interface Pending {
  done: boolean;
  result: Promise<Run>;
}

function ctx(args: string[], env: NodeJS.ProcessEnv, cwd: string): Pending {
  const started = performance.now();
  const pending: Pending = { done: false, result: Promise.resolve() as unknown as Promise<Run> };
  pending.result = new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CTX_BIN, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      pending.done = true;
      resolve({ code, stdout, stderr, wallMs: performance.now() - started });
    });
  });
  return pending;
}

async function serverSessions(cluster: PgCluster): Promise<number> {
  return Number((await cluster.sql("SELECT count(*) AS n FROM ctx_team.sessions", "bench")).rows[0]?.n);
}

/** Waits until the server holds more than `above` sessions while `push` still runs (false: the push ended first). */
async function pushUnderWay(cluster: PgCluster, push: Pending, above: number): Promise<boolean> {
  while (!push.done) {
    if ((await serverSessions(cluster).catch(() => 0)) > above) return !push.done;
    await sleep(20);
  }
  return false;
}

function outcomeOf(run: Run): string {
  try {
    const json = JSON.parse(run.stdout) as { outcome?: string; error?: string };
    return `${json.outcome ?? "?"}${json.error === undefined ? "" : `: ${json.error}`}`;
  } catch {
    return `exit ${run.code}: ${run.stderr.trim()}`;
  }
}

interface SearchRun {
  ms: number;
  code: number | null;
  results: number;
  notices: string[];
}

async function coldSearch(query: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<SearchRun> {
  const search = await ctx(["search", ...query, "--team", "--json"], env, cwd).result;
  let results = -1;
  try {
    results = ((JSON.parse(search.stdout) as { results?: unknown[] }).results ?? []).length;
  } catch {
    // Not JSON: counted as no results.
  }
  return {
    ms: search.wallMs,
    code: search.code,
    results,
    notices: search.stderr.split("\n").filter((line) => line !== ""),
  };
}

function searchSummary(searches: SearchRun[]): Record<string, unknown> {
  const times = searches.map((s) => s.ms).sort((a, b) => a - b);
  return {
    runs: searches.length,
    maxMs: Math.round(times.at(-1) ?? 0),
    p95Ms: Math.round(percentile(times, 95)),
    p50Ms: Math.round(percentile(times, 50)),
    goalMs: SEARCH_GOAL_MS,
    withinGoal: (times.at(-1) ?? 0) <= SEARCH_GOAL_MS,
    answeredLocally: searches.every((s) => s.code === 0 && s.results > 0),
    oneNoticeEach: searches.every(
      (s) => s.notices.length === 1 && s.notices[0]?.startsWith("ctx: team results left out:") === true,
    ),
    notice: searches[0]?.notices[0] ?? null,
  };
}

/** A listener that accepts connections and never answers (a server that hangs, or a dropped route). */
async function silentListener(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export async function run(): Promise<Record<string, unknown>> {
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const cluster = started.cluster;
  try {
    await cluster.createDatabase("bench");
    const admin = cluster.adminUrl("bench");
    await migrateTeam(admin, { connectTimeoutMs: 5_000 });
    await cluster.createRole("alice", "alice-pw");
    await addMember(admin, { connectTimeoutMs: 5_000 }, { role: "alice", team: "bench" });
    const home = join(cluster.dir, "alice");
    const claudeDir = join(home, ".claude");
    mkdirSync(claudeDir, { recursive: true });
    writeSyntheticCorpus(claudeDir, { sessions: SESSIONS, sizeFactor: 0.25, seed: SEED });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      CTX_HOME: join(home, ".ctx"),
      CLAUDE_CONFIG_DIR: claudeDir,
      CTX_LOG_LEVEL: "warn",
      CTX_TEAM__URL: cluster.url("alice", "alice-pw", "bench"),
      CTX_TEAM__NAME: "bench",
    };
    const dbPath = join(home, ".ctx", "index.db");
    await syncIndex({ claudeDir, dbPath });
    const cwds = (() => {
      const index = openSessionIndex(dbPath, { readonly: true });
      try {
        return (
          databaseOf(index).prepare("SELECT DISTINCT cwd FROM sessions WHERE cwd IS NOT NULL").all() as {
            cwd: string;
          }[]
        ).map((r) => r.cwd);
      } finally {
        index.close();
      }
    })();
    for (const [i, cwd] of cwds.entries()) {
      await addSharedProject(env, { remoteUrl: `example.com/bench/project-${i}`, repoPath: "" }, cwd);
    }
    await syncIndex({ claudeDir, dbPath, full: true, teamShare: { roots: cwds } });
    const local = openSessionIndex(dbPath, { readonly: true });
    const localChunks = new Map(
      (
        databaseOf(local).prepare("SELECT session_id AS id, count(*) AS n FROM chunks GROUP BY session_id").all() as {
          id: string;
          n: number;
        }[]
      ).map((r) => [r.id, Number(r.n)]),
    );
    const localSessions = (databaseOf(local).prepare("SELECT id FROM sessions").all() as { id: string }[]).map(
      (r) => r.id,
    );
    const queued = outboxDepth(local);
    local.close();
    process.stderr.write(`bench: team-faults: ${localSessions.length} sessions indexed, ${queued.items} queued\n`);

    // 1. Restarted mid-push.
    const first = ctx(["team", "push", "--json"], env, home);
    const restartedMidPush = await pushUnderWay(cluster, first, 0);
    const beforeRestart = await serverSessions(cluster);
    await cluster.stopServer();
    await cluster.startServer();
    const firstRun = await first.result;

    // 2. Stopped for the outage, mid-push; cold searches meanwhile.
    const afterRestart = await serverSessions(cluster);
    const second = ctx(["team", "push", "--json"], env, home);
    const stoppedMidPush = await pushUnderWay(cluster, second, afterRestart);
    const beforeOutage = await serverSessions(cluster);
    await cluster.stopServer();
    const outageStarted = performance.now();
    const secondRun = await second.result;
    const words = corpusVocabulary(SEED).words;
    const searches: SearchRun[] = [];
    const pushDuringOutage = await ctx(["team", "push", "--json"], env, home).result;
    let q = 0;
    const nextQuery = () => {
      q += 1;
      return [words[100 + ((q * 7) % 300)], words[101 + ((q * 11) % 300)]] as string[];
    };
    while (performance.now() - outageStarted < OUTAGE_S * 1_000)
      searches.push(await coldSearch(nextQuery(), env, home));
    const outageMs = performance.now() - outageStarted;
    await cluster.startServer();

    // A server that never answers: the connect limit, then local results.
    const silent = await silentListener();
    const silentSearches: SearchRun[] = [];
    try {
      const silentEnv = { ...env, CTX_TEAM__URL: `postgresql://alice:alice-pw@127.0.0.1:${silent.port}/bench` };
      for (let i = 0; i < SILENT_RUNS; i++) silentSearches.push(await coldSearch(nextQuery(), silentEnv, home));
    } finally {
      await silent.close();
    }

    // 3. Back: the outbox drains.
    const drain = await ctx(["team", "push", "--json"], env, home).result;

    const serverChunks = new Map(
      (
        (
          await cluster.sql(
            "SELECT s.id, (SELECT count(*) FROM ctx_team.chunks c WHERE c.session_id = s.id) AS n FROM ctx_team.sessions s",
            "bench",
          )
        ).rows as { id: string; n: string }[]
      ).map((r) => [r.id, Number(r.n)]),
    );
    const transcripts = Number(
      (await cluster.sql("SELECT count(*) AS n FROM ctx_team.transcripts", "bench")).rows[0]?.n,
    );
    const lost = localSessions.filter((id) => !serverChunks.has(id));
    const localIds = new Set(localSessions);
    const extra = [...serverChunks.keys()].filter((id) => !localIds.has(id));
    const chunkMismatch = localSessions.filter((id) => (serverChunks.get(id) ?? -1) !== (localChunks.get(id) ?? 0));
    const after = openSessionIndex(dbPath, { readonly: true });
    const outboxAfter = outboxDepth(after);
    after.close();
    const exactlyOnce =
      lost.length === 0 && extra.length === 0 && chunkMismatch.length === 0 && transcripts === localSessions.length;

    const summary = {
      loadAverage1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
      sessions: localSessions.length,
      chunks: [...localChunks.values()].reduce((a, b) => a + b, 0),
      outageSeconds: OUTAGE_S,
      restart: {
        midPush: restartedMidPush,
        serverSessionsBefore: beforeRestart,
        pushOutcome: outcomeOf(firstRun),
      },
      outage: {
        midPush: stoppedMidPush,
        serverSessionsBefore: beforeOutage,
        pushOutcome: outcomeOf(secondRun),
        pushWhileDown: { outcome: outcomeOf(pushDuringOutage), ms: Math.round(pushDuringOutage.wallMs) },
        measuredMs: Math.round(outageMs),
      },
      searchWhileDown: searchSummary(searches),
      searchServerSilent: searchSummary(silentSearches),
      drain: { outcome: outcomeOf(drain), ms: Math.round(drain.wallMs) },
      server: { sessions: serverChunks.size, transcripts, lost: lost.length, extra: extra.length, chunkMismatch },
      outboxAfter,
      everySessionExactlyOnce: exactlyOnce && outboxAfter.items === 0,
    };
    process.stderr.write(
      `bench: team-faults: outage ${Math.round(outageMs / 1000)} s, ${searches.length} searches (${JSON.stringify(summary.searchWhileDown)}); exactly once: ${summary.everySessionExactlyOnce}\n`,
    );
    if (!summary.everySessionExactlyOnce) throw new Error(`rows differ: ${JSON.stringify(summary.server)}`);
    return summary;
  } finally {
    await cluster.stop();
  }
}
