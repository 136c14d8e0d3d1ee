// The team server at the scale (#36: 10 members x 10,000 sessions; `ctx search --team` warm p95 <= 150 ms,
// cold <= 500 ms; push of one new session <= 2 s). A throwaway local PostgreSQL; ten member roles under row-level
// security. Member 0 indexes a synthetic corpus (bench/synthetic-transcripts.ts, CTX_BENCH_TEAM_SCALE_PUSHED sessions,
// 200) and pushes it with the shipped `ctx team push --json` (the real path: its rate is reported); the rest of the
// library is filled from those pushed rows, varied so no two sessions are alike, through push's own SQL as each member
// (bench/team-scale-fill.ts). At each size of CTX_BENCH_TEAM_SCALE_SESSIONS (sessions per member, "1000,10000": the
// curve) it measures one new session pushed by `ctx team push`, `ctx search --team --json` as a fresh process (cold),
// ctx_fork_detect over MCP with the team connection kept as `ctx serve` keeps it (warm), and the database's size.
// `pnpm bench team-scale` (after `pnpm build`).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../src/config/defaults.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { ForkDetectReportSchema } from "../src/search/fork-report-schema.ts";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { addSharedProject } from "../src/store/team/team-state.ts";
import { connectTeam, type TeamClient } from "../src/team/connect.ts";
import { KeptTeamConnection } from "../src/team/kept-connection.ts";
import { teamCandidatesPort } from "../src/team/search-port.ts";
import { addMember, migrateTeam } from "../src/team/service.ts";
import { closeClients, connectClient, testDeps } from "../tests/helpers/mcp-project.ts";
import { PG_SUPERUSER, PG_SUPERUSER_PASSWORD, startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { teamIdOf } from "../tests/helpers/team-fixture.ts";
import { createRng } from "./synthetic-text.ts";
import { corpusVocabulary, generateSession, writeSyntheticCorpus } from "./synthetic-transcripts.ts";
import { type PushJson, runPush } from "./team-push.bench.ts";
import { fillMember, readTemplates, type TemplateSession } from "./team-scale-fill.ts";

const CTX_BIN = fileURLToPath(new URL("../dist/ctx.js", import.meta.url));
const MEMBERS = Number(process.env.CTX_BENCH_TEAM_SCALE_MEMBERS ?? 10);
const SIZES = (process.env.CTX_BENCH_TEAM_SCALE_SESSIONS ?? "1000,10000").split(",").map(Number);
const PUSHED = Number(process.env.CTX_BENCH_TEAM_SCALE_PUSHED ?? 200);
const SIZE_FACTOR = Number(process.env.CTX_BENCH_TEAM_SCALE_SIZE ?? 0.1);
const SEED = 36;
const TEAM = "scale";
const GOALS = { warmP95Ms: "<= 150", coldP95Ms: "<= 500", pushOneSessionMs: "<= 2000" };

/**
 * The machine's huge pages, read while the server runs: PostgreSQL's default `huge_pages = try` maps its shared
 * memory on them when the OS has them reserved (vm.nr_hugepages), and a new server process then faults in a
 * 2 MB page where it would fault 512 small ones (docs/team.md "At scale"). Null off Linux.
 */
function hugePages(): { reservedMB: number; inUseMB: number } | null {
  let text: string;
  try {
    text = readFileSync("/proc/meminfo", "utf8");
  } catch {
    return null;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
  const pageMB = field("Hugepagesize") / 1024;
  const total = field("HugePages_Total");
  const inUse = total - field("HugePages_Free") + field("HugePages_Rsvd");
  return { reservedMB: total * pageMB, inUseMB: inUse * pageMB };
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { runs: sorted.length, p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(at(1)) };
}

/** A push that must push: anything else stops the run with what the CLI said. */
async function runPushed(env: NodeJS.ProcessEnv): Promise<{ json: PushJson; wallMs: number }> {
  const pushed = await runPush(env);
  if (pushed.json.outcome !== "pushed") {
    throw new Error(`ctx team push: ${pushed.json.outcome} ${pushed.json.error ?? ""}`);
  }
  return pushed;
}

/**
 * Queries a member would type about the library's work: three to five words in a row from a pushed chunk (the
 * varied copies keep four words in five), so every query has team matches at every size.
 */
function queries(templates: readonly TemplateSession[]): string[] {
  const rng = createRng(SEED + 99);
  const texts = templates.flatMap((t) => t.work.chunks.map((c) => c.text));
  return Array.from({ length: 30 }, () => {
    const words = (texts[rng.int(0, texts.length - 1)] ?? "").match(/[A-Za-z]{4,}/g) ?? [];
    const length = rng.int(3, 5);
    const at = rng.int(0, Math.max(0, words.length - length));
    return words.slice(at, at + length).join(" ");
  }).filter((query) => query !== "");
}

export async function run(): Promise<Record<string, unknown>> {
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const pg = started.cluster;
  const clients: TeamClient[] = [];
  const connect = async (url: string) => {
    const client = await connectTeam(url, { connectTimeoutMs: 30_000 });
    clients.push(client);
    return client;
  };
  try {
    await pg.createDatabase("library");
    const adminUrl = pg.url(PG_SUPERUSER, PG_SUPERUSER_PASSWORD, "library");
    await migrateTeam(adminUrl, { connectTimeoutMs: 30_000 });
    const roles = Array.from({ length: MEMBERS }, (_, i) => `member${i}`);
    for (const role of roles) {
      await pg.createRole(role, `${role}-pw`);
      await addMember(adminUrl, { connectTimeoutMs: 30_000 }, { role, team: TEAM });
    }
    const memberUrl = (m: number) => pg.url(`member${m}`, `member${m}-pw`, "library");

    // Member 0 on its own machine: a corpus, every project shared, indexed (which queues the outbox), pushed by the CLI.
    const home = join(pg.dir, "member-0");
    const claudeDir = join(home, "claude");
    const dbPath = join(home, "ctx", "index.db");
    mkdirSync(claudeDir, { recursive: true });
    writeSyntheticCorpus(claudeDir, { sessions: PUSHED, sizeFactor: SIZE_FACTOR, seed: SEED });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      TZ: "UTC",
      CTX_HOME: join(home, "ctx"),
      CLAUDE_CONFIG_DIR: claudeDir,
      CTX_LOG_LEVEL: "warn",
      CTX_TEAM__URL: memberUrl(0),
      CTX_TEAM__NAME: TEAM,
    };
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath);
    const cwds = (
      databaseOf(index).prepare("SELECT DISTINCT cwd FROM sessions WHERE cwd IS NOT NULL ORDER BY cwd").all() as Array<{
        cwd: string;
      }>
    ).map((r) => r.cwd);
    index.close();
    for (const [i, cwd] of cwds.entries()) {
      await addSharedProject(env, { remoteUrl: `example.com/team-scale/project-${i}`, repoPath: "" }, cwd);
    }
    await syncIndex({ claudeDir, dbPath, full: true, teamShare: { roots: cwds } });
    const realPush = await runPushed(env);
    const pushed = realPush.json.summary;
    if (pushed === undefined || pushed.sessions === 0) throw new Error("the real push pushed nothing");
    process.stderr.write(`bench: team-scale real push: ${pushed.sessions} sessions, ${pushed.chunks} chunks\n`);

    const admin = await connect(adminUrl);
    const templates = await readTemplates(admin, "member0");
    const vocabulary = corpusVocabulary(SEED);
    const members = await Promise.all(roles.map((_, m) => connect(memberUrl(m))));
    const teamId = (await teamIdOf(admin, TEAM)) as string;
    const list = queries(templates);
    const points: Record<string, unknown>[] = [];
    let filled = 0;
    let newSessions = 0;
    for (const size of SIZES) {
      // Member 0 already holds the sessions it pushed for real (and the new ones of earlier points).
      const fillStarted = performance.now();
      let fillChunks = 0;
      // Two members write at once: the machine has two cores, and the server's work per row is the cost.
      const queue = roles.map((_, m) => m);
      const worker = async () => {
        for (let m = queue.shift(); m !== undefined; m = queue.shift()) {
          const from = m === 0 ? Math.max(filled, PUSHED + newSessions) : filled;
          const written = await fillMember(members[m] as TeamClient, teamId, templates, vocabulary, m, from, size);
          fillChunks += written; // after the await: two workers add to it
        }
      };
      await Promise.all([worker(), worker()]);
      const fillMs = performance.now() - fillStarted;
      filled = size;
      // As after any bulk load: vacuumed and analysed once, so autovacuum's first pass over the new rows (minutes, at
      // 10 x 10,000 sessions) does not run during the measurements below, as it did in runs before; then checkpointed
      // and the system's dirty pages written out (`sync`), so the kernel is not still writing gigabytes of the fill
      // while they run: what is measured is a server at rest, not one minutes after a 6 GB load.
      const vacuumStarted = performance.now();
      await admin.query("VACUUM (ANALYZE)");
      await admin.query("CHECKPOINT");
      spawnSync("sync");
      const vacuumMs = performance.now() - vacuumStarted;
      process.stderr.write(
        `bench: team-scale filled to ${MEMBERS} x ${size} in ${Math.round(fillMs)} ms, vacuumed and flushed in ${Math.round(vacuumMs)} ms\n`,
      );

      // One new session of member 0, queued by the index as SessionEnd's would, pushed by the CLI.
      const rng = createRng(SEED * 7 + size);
      const cwd = cwds[0] as string;
      const session = generateSession(rng, vocabulary, cwd, SIZE_FACTOR);
      const projectDir = join(claudeDir, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
      writeFileSync(join(projectDir, `${session.sessionId}.jsonl`), `${session.main.join("\n")}\n`);
      newSessions++;
      await syncIndex({ claudeDir, dbPath, teamShare: { roots: cwds } });
      const one = await runPushed(env);
      if (one.json.summary?.sessions !== 1) throw new Error(`push of one session pushed ${JSON.stringify(one.json)}`);

      // Warm: as `ctx serve` runs it (src/mcp/stdio.ts), one team connection kept between searches.
      const base = defaultConfig();
      const config = { ...base, team: { ...base.team, url: memberUrl(0), name: TEAM } };
      const kept = new KeptTeamConnection();
      const teamCandidates = teamCandidatesPort(config, env, kept);
      const mcp = await connectClient(
        testDeps(home, {
          forkDetect: (request) =>
            runForkDetect(request, {
              config,
              env,
              projectRoot: home,
              now: () => Date.now(),
              refreshBudgetMs: 0,
              teamCandidates,
            }),
        }),
      );
      const loadBefore = loadavg()[0] ?? 0;
      const warm: number[] = [];
      let warmWithTeam = 0;
      let warmLeftOut = 0;
      for (let round = 0; round < 3; round++) {
        for (const query of list) {
          const t = performance.now();
          const result = await mcp.callTool({ name: "ctx_fork_detect", arguments: { query, scope: "all" } });
          const elapsed = performance.now() - t;
          const report = ForkDetectReportSchema.parse(result.structuredContent);
          if (report.results.length === 0) throw new Error(`no result for ${JSON.stringify(query)}`);
          if (round === 0) continue; // warms the kept connection, the index and the JIT
          warm.push(elapsed);
          // Counted, not thrown: a team fetch past team.connectTimeoutMs is what a slow server looks like.
          if (report.notices.length > 0) warmLeftOut++;
          if (report.results.some((r) => r.team !== undefined)) warmWithTeam++;
        }
      }
      await closeClients();
      await kept.close();

      const cold: number[] = [];
      let coldWithTeam = 0;
      let coldLeftOut = 0;
      // Every query, each a new process: with 30 the p95 is the 29th of 30, not (with 15) the slowest single run.
      for (const query of list) {
        const t = performance.now();
        const child = spawnSync(
          process.execPath,
          [CTX_BIN, "search", query, "--team", "--json", "--no-refresh", "--no-pick"],
          { env, encoding: "utf8" },
        );
        cold.push(performance.now() - t);
        if (child.status !== 0) throw new Error(`ctx search exited ${child.status}: ${child.stderr}`);
        const report = ForkDetectReportSchema.parse(JSON.parse(child.stdout));
        if (report.notices.length > 0) coldLeftOut++;
        if (report.results.length === 0) throw new Error(`no result for ${JSON.stringify(query)}`);
        if (report.results.some((r) => r.team !== undefined)) coldWithTeam++;
      }

      const sizes = (
        await admin.query<{ name: string; bytes: string }>(
          `SELECT 'database' AS name, pg_database_size(current_database())::text AS bytes
           UNION ALL SELECT c.relname, pg_total_relation_size(c.oid)::text FROM pg_class c
            WHERE c.relnamespace = 'ctx_team'::regnamespace AND c.relkind = 'r'`,
        )
      ).rows;
      const counts = (
        await admin.query<{ sessions: string; chunks: string }>(
          "SELECT (SELECT count(*) FROM ctx_team.sessions) AS sessions, (SELECT count(*) FROM ctx_team.chunks) AS chunks",
        )
      ).rows[0];
      const mb = (name: string) => Math.round(Number(sizes.find((s) => s.name === name)?.bytes ?? 0) / 1e5) / 10;
      const point = {
        sessionsPerMember: size,
        teamSessions: Number(counts?.sessions),
        teamChunks: Number(counts?.chunks),
        fill: {
          ms: Math.round(fillMs),
          chunksPerSecond: Math.round(fillChunks / (fillMs / 1000)),
          vacuumMs: Math.round(vacuumMs),
        },
        pushOneSession: {
          wallMs: Math.round(one.wallMs),
          pushMs: one.json.summary?.durationMs,
          chunks: one.json.summary?.chunks,
        },
        warmMcp: { ...percentiles(warm), answersWithTeamResults: warmWithTeam, teamLeftOut: warmLeftOut },
        coldProcess: { ...percentiles(cold), answersWithTeamResults: coldWithTeam, teamLeftOut: coldLeftOut },
        databaseMB: {
          total: mb("database"),
          chunks: mb("chunks"),
          transcripts: mb("transcripts"),
          sessions: mb("sessions"),
          termStats: mb("term_stats"),
        },
        loadAverage: { before: Math.round(loadBefore * 100) / 100, after: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
        hugePages: hugePages(),
      };
      process.stderr.write(`bench: team-scale ${JSON.stringify(point)}\n`);
      points.push(point);
    }
    if (process.env.CTX_BENCH_TEAM_SCALE_HOLD === "1") {
      // For EXPLAIN ANALYZE by hand: the filled server stays up until this process is interrupted. The member's
      // environment and the bench's queries are left beside it, for trials of a build against the same server.
      const held = join(pg.dir, "held.json");
      writeFileSync(held, `${JSON.stringify({ env, queries: list }, null, 2)}\n`, { mode: 0o600 });
      process.stderr.write(`bench: team-scale held environment and queries in ${held}\n`);
      process.stderr.write(`bench: team-scale holding ${adminUrl} (member: ${memberUrl(0)}); interrupt to stop\n`);
      await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
    }
    return {
      goals: GOALS,
      members: MEMBERS,
      filledHow:
        "member0's sessions pushed by `ctx team push`; the rest varied from those rows and written by push's writeBatch as each member",
      realPush: {
        sessions: pushed.sessions,
        chunks: pushed.chunks,
        messages: pushed.messages,
        pushMs: pushed.durationMs,
        sessionsPerSecond: Math.round((pushed.sessions / pushed.durationMs) * 10_000) / 10,
        chunksPerSecond: Math.round((pushed.chunks / pushed.durationMs) * 1000),
      },
      points,
    };
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await pg.stop();
  }
}
