// Team search at the scale (#23: p95 <= 150 ms warm through the MCP tool, <= 400 ms as a cold
// `ctx search --team --json` process): a throwaway local PostgreSQL holding 10 members x 1,000 sessions of chunks
// (CTX_BENCH_TEAM_SESSIONS changes the total; 8 chunks of ~110 words each), put there by direct SQL bulk insert
// as each member (tests/helpers/team-fixture.ts; the real push is a later part), and a local index of a synthetic
// corpus (CTX_BENCH_TEAM_LOCAL_SESSIONS, 500) built from the same vocabulary, so queries match on both sides.
// Every search is scope `all`: the team's candidates and the local index, ranked together. `pnpm bench team-search`
// (after `pnpm build`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../src/config/defaults.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { ForkDetectReportSchema } from "../src/search/fork-report-schema.ts";
import { resolveIndexPath } from "../src/search/paths.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { connectTeam, type TeamClient } from "../src/team/connect.ts";
import { KeptTeamConnection } from "../src/team/kept-connection.ts";
import { addTeamMember } from "../src/team/members.ts";
import { migrateTeamSchema } from "../src/team/migrate.ts";
import { teamCandidatesPort } from "../src/team/search-port.ts";
import { closeClients, connectClient, testDeps } from "../tests/helpers/mcp-project.ts";
import { startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { insertTeamSessions, type TeamFixtureSession } from "../tests/helpers/team-fixture.ts";
import { createRng, paragraph, sentence } from "./synthetic-text.ts";
import { corpusVocabulary, ensureSyntheticCorpus } from "./synthetic-transcripts.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = join(here, "..", "dist", "ctx.js");
const MEMBERS = 10;
const TEAM_SESSIONS = Number(process.env.CTX_BENCH_TEAM_SESSIONS ?? 10_000);
const LOCAL_SESSIONS = Number(process.env.CTX_BENCH_TEAM_LOCAL_SESSIONS ?? 500);
const CHUNKS_PER_SESSION = 8;
const SEED = 11;
const BATCH_SESSIONS = 250;
const GOALS = { warmMcpP95Ms: "<= 150", coldProcessP95Ms: "<= 400" };

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { runs: sorted.length, p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(at(1)) };
}

function teamSessions(member: number, count: number): TeamFixtureSession[] {
  const rng = createRng(SEED * 1_000 + member);
  const vocabulary = corpusVocabulary(SEED);
  return Array.from({ length: count }, (_, i) => ({
    id: `m${member}-s${i}`,
    remote: `github.com/acme/repo-${i % 20}`,
    title: sentence(rng, vocabulary, 6),
    branch: "main",
    startedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000),
    endedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000 + 1_800_000),
    chunks: Array.from({ length: CHUNKS_PER_SESSION }, () => ({ text: paragraph(rng, vocabulary, 110) })),
  }));
}

function queries(): string[] {
  const rng = createRng(SEED + 99);
  const vocabulary = corpusVocabulary(SEED);
  return Array.from({ length: 30 }, () => sentence(rng, vocabulary, 4).replace(/[.!?]$/, ""));
}

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const pg = started.cluster;
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-team-search-"));
  const clients: TeamClient[] = [];
  try {
    const as = async (role: string) => {
      // Setup only (the searches use team.connectTimeoutMs): ten members connect at once on a busy machine.
      const client = await connectTeam(pg.url(role, `${role}-pw`, "library"), { connectTimeoutMs: 30_000 });
      clients.push(client);
      return client;
    };
    const roles = Array.from({ length: MEMBERS }, (_, i) => `member${i}`);
    for (const role of ["owner", ...roles]) await pg.createRole(role, `${role}-pw`);
    await pg.sql('CREATE DATABASE library OWNER "owner"');
    const admin = await as("owner");
    await migrateTeamSchema(admin);
    for (const role of roles) await addTeamMember(admin, { role, team: "web" });

    const perMember = Math.ceil(TEAM_SESSIONS / MEMBERS);
    const loadStarted = performance.now();
    await Promise.all(
      roles.map(async (role, member) => {
        const client = await as(role);
        const sessions = teamSessions(member, perMember);
        for (let at = 0; at < sessions.length; at += BATCH_SESSIONS) {
          await insertTeamSessions(client, "web", sessions.slice(at, at + BATCH_SESSIONS));
        }
      }),
    );
    const loadMs = performance.now() - loadStarted;
    await admin.query("ANALYZE ctx_team.chunks");
    await admin.query("ANALYZE ctx_team.sessions");
    const chunkRows = Number(
      (await admin.query<{ n: string }>("SELECT count(*) AS n FROM ctx_team.chunks")).rows[0]?.n,
    );
    process.stderr.write(`bench: team-search loaded ${chunkRows} chunks in ${Math.round(loadMs)} ms\n`);

    const corpus = ensureSyntheticCorpus({ sessions: LOCAL_SESSIONS, sizeFactor: 0.3, seed: SEED }, (line) =>
      process.stderr.write(`bench: ${line}\n`),
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CTX_HOME: home,
      CLAUDE_CONFIG_DIR: corpus.root,
      CTX_LOG_LEVEL: "silent",
    };
    await syncIndex({ claudeDir: corpus.root, dbPath: resolveIndexPath(env) });

    const url = pg.url("member0", "member0-pw", "library");
    const base = defaultConfig();
    const config = { ...base, team: { ...base.team, url, name: "web" } };
    // As `ctx serve` runs it (src/mcp/stdio.ts): one team connection kept between searches.
    const teamConnection = new KeptTeamConnection();
    const teamCandidates = teamCandidatesPort(config, env, teamConnection);
    const client = await connectClient(
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
    const list = queries();
    const loadBefore = loadavg()[0] ?? 0;
    let teamResults = 0;
    let localResults = 0;
    const warm: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const query of list) {
        const t = performance.now();
        const result = await client.callTool({ name: "ctx_fork_detect", arguments: { query, scope: "all" } });
        const elapsed = performance.now() - t;
        const report = ForkDetectReportSchema.parse(result.structuredContent);
        if (report.notices.length > 0) throw new Error(`team search left out: ${report.notices.join("; ")}`);
        if (round === 0) continue; // the first round warms the connection cache, the index and the JIT
        warm.push(elapsed);
        for (const r of report.results)
          if (r.team === undefined) localResults++;
          else teamResults++;
      }
    }
    await closeClients();
    await teamConnection.close();

    const cold: number[] = [];
    const childEnv = { ...env, CTX_TEAM__URL: url, CTX_TEAM__NAME: "web" };
    for (const query of list.slice(0, 15)) {
      const t = performance.now();
      const child = spawnSync(
        process.execPath,
        [ctxBin, "search", query, "--team", "--json", "--no-refresh", "--no-pick"],
        { env: childEnv, encoding: "utf8" },
      );
      cold.push(performance.now() - t);
      if (child.status !== 0 && child.status !== 1)
        throw new Error(`ctx search exited ${child.status}: ${child.stderr}`);
      if (child.stderr.includes("team results left out")) throw new Error(child.stderr);
    }
    return {
      goals: GOALS,
      teamSessions: perMember * MEMBERS,
      teamChunks: chunkRows,
      members: MEMBERS,
      localSessions: LOCAL_SESSIONS,
      bulkInsertRowsPerSecond: Math.round(chunkRows / (loadMs / 1000)),
      warmMcp: percentiles(warm),
      coldProcess: percentiles(cold),
      resultsShown: { team: teamResults, local: localResults },
      /** The machine's 1-minute load average before and after the searches (a shared machine inflates the times). */
      loadAverage: { before: Math.round(loadBefore * 100) / 100, after: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
    };
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await pg.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
