// Team push (docs/team.md "Push"): BENCH_TEAM_MEMBERS members (10) each with BENCH_TEAM_SESSIONS real-shaped
// synthetic sessions (1,000; bench/synthetic-transcripts.ts, BENCH_TEAM_SIZE their size factor, 0.25), indexed into
// each member's own CTX_HOME with every project shared (so everything is queued in the outbox), then pushed AT ONCE
// by one `ctx team push --json` process per member (the shipped CLI, dist/ctx.js) into a throwaway local cluster,
// each as its own role. Reports messages/s per member (the goal is ≥ 2,000), and the rows on the server against the
// rows of the members' local indexes: none lost, none duplicated. `pnpm bench team-push`; `pnpm build` first.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { addSharedProject } from "../src/store/team/team-state.ts";
import { addMember, migrateTeam } from "../src/team/service.ts";
import { startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { writeSyntheticCorpus } from "./synthetic-transcripts.ts";

const MEMBERS = Number(process.env.BENCH_TEAM_MEMBERS ?? 10);
const SESSIONS = Number(process.env.BENCH_TEAM_SESSIONS ?? 1_000);
const SIZE = Number(process.env.BENCH_TEAM_SIZE ?? 0.25);
const CTX_BIN = fileURLToPath(new URL("../dist/ctx.js", import.meta.url));

export interface PushJson {
  outcome: string;
  error?: string;
  summary?: { sessions: number; chunks: number; messages: number; transcripts?: number; durationMs: number };
}

/** `ctx team push --json` as a member runs it: its report and wall time. */
export function runPush(env: NodeJS.ProcessEnv): Promise<{ json: PushJson; wallMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CTX_BIN, "team", "push", "--json"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        resolve({ json: JSON.parse(out) as PushJson, wallMs: performance.now() - started });
      } catch {
        reject(new Error(`ctx team push exited ${code}: ${err.trim()}`));
      }
    });
  });
}

export async function run(): Promise<Record<string, unknown>> {
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const cluster = started.cluster;
  try {
    await cluster.createDatabase("bench");
    const admin = cluster.adminUrl("bench");
    await migrateTeam(admin, { connectTimeoutMs: 5_000 });
    const members: Array<{ role: string; env: NodeJS.ProcessEnv; sessions: number; chunks: number }> = [];
    const indexStarted = performance.now();
    for (let m = 0; m < MEMBERS; m++) {
      const role = `member${m}`;
      await cluster.createRole(role, `pw-${m}`);
      await addMember(admin, { connectTimeoutMs: 5_000 }, { role, team: "bench" });
      const home = join(cluster.dir, `member-${m}`);
      const claudeDir = join(home, "claude");
      mkdirSync(claudeDir, { recursive: true });
      writeSyntheticCorpus(claudeDir, { sessions: SESSIONS, sizeFactor: SIZE, seed: 1_000 + m });
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        CTX_HOME: join(home, "ctx"),
        CTX_LOG_LEVEL: "warn",
        CTX_TEAM__URL: cluster.url(role, `pw-${m}`, "bench"),
        CTX_TEAM__NAME: "bench",
      };
      const dbPath = join(home, "ctx", "index.db");
      // Every project of the corpus shared: first indexed to learn its folders, then queued by the next ingest.
      await syncIndex({ claudeDir, dbPath });
      const index = openSessionIndex(dbPath);
      const cwds = (
        databaseOf(index).prepare("SELECT DISTINCT cwd FROM sessions WHERE cwd IS NOT NULL").all() as Array<{
          cwd: string;
        }>
      ).map((r) => r.cwd);
      const sessions = Number(
        (databaseOf(index).prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n,
      );
      const chunks = Number((databaseOf(index).prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n);
      index.close();
      for (const [i, cwd] of cwds.entries()) {
        await addSharedProject(env, { remoteUrl: `example.com/bench/project-${i}`, repoPath: "" }, cwd);
      }
      await syncIndex({ claudeDir, dbPath, full: true, teamShare: { roots: cwds } });
      members.push({ role, env, sessions, chunks });
      process.stderr.write(`bench: team-push member ${m}: ${sessions} sessions, ${chunks} chunks indexed and queued\n`);
    }
    const indexMs = performance.now() - indexStarted;
    const pushStarted = performance.now();
    const pushes = await Promise.all(members.map((m) => runPush(m.env)));
    const pushWallMs = performance.now() - pushStarted;
    const perMember = pushes.map((p, i) => {
      const s = p.json.summary;
      if (p.json.outcome !== "pushed" || s === undefined) {
        throw new Error(`member ${i}: ${p.json.outcome} ${p.json.error ?? ""}`);
      }
      return {
        sessions: s.sessions,
        chunks: s.chunks,
        messages: s.messages,
        pushMs: s.durationMs,
        messagesPerSecond: Math.round((s.messages / s.durationMs) * 1000),
      };
    });
    const server = (
      await cluster.sql(
        `SELECT author, count(*) AS sessions,
                (SELECT count(*) FROM ctx_team.chunks c JOIN ctx_team.sessions s2 ON s2.id = c.session_id
                   AND s2.team_id = c.team_id WHERE s2.author = s.author) AS chunks,
                (SELECT count(*) FROM ctx_team.transcripts t JOIN ctx_team.sessions s3 ON s3.id = t.session_id
                   AND s3.team_id = t.team_id WHERE s3.author = s.author) AS transcripts
         FROM ctx_team.sessions s GROUP BY author ORDER BY author`,
        "bench",
      )
    ).rows as Array<{ author: string; sessions: string; chunks: string; transcripts: string }>;
    const check = members.map((m) => {
      const row = server.find((r) => r.author === m.role);
      return {
        role: m.role,
        expectedSessions: m.sessions,
        serverSessions: Number(row?.sessions ?? 0),
        expectedChunks: m.chunks,
        serverChunks: Number(row?.chunks ?? 0),
        serverTranscripts: Number(row?.transcripts ?? 0),
      };
    });
    const exact = check.every((c) => c.expectedSessions === c.serverSessions && c.expectedChunks === c.serverChunks);
    const rates = perMember.map((m) => m.messagesPerSecond).sort((a, b) => a - b);
    const summary = {
      members: MEMBERS,
      sessionsPerMember: SESSIONS,
      sizeFactor: SIZE,
      indexAndQueueMs: Math.round(indexMs),
      pushWallMs: Math.round(pushWallMs),
      messagesPerSecondPerMember: { min: rates[0], median: rates[Math.floor(rates.length / 2)], max: rates.at(-1) },
      goalMessagesPerSecondPerMember: 2_000,
      everyRowExactlyOnce: exact,
      perMember,
      serverCheck: check,
    };
    process.stderr.write(
      `bench: team-push ${MEMBERS}×${SESSIONS}: ${rates[0]}-${rates.at(-1)} messages/s per member, rows exact: ${exact}\n`,
    );
    if (!exact) throw new Error(`rows on the server differ from the members' indexes: ${JSON.stringify(check)}`);
    return summary;
  } finally {
    await cluster.stop();
  }
}
