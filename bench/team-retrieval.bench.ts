// Retrieval parity through the team backend (#23: within 0.01 hit@5 and hit@1 of the local index): the LoCoMo dev
// split (../shared/eval/locomo, as `pnpm bench retrieval` reads it) indexed locally, then every session and its
// chunks loaded into a throwaway PostgreSQL's team schema by three members in turn (direct SQL,
// tests/helpers/team-fixture.ts, until `ctx team push` lands). Each question runs through runForkDetect twice with
// the shipped ranking: scope `local`, and scope `team` (candidates only from the server's full-text search, scored
// with the local index's BM25). The difference is what the server's candidate generation costs.
// `pnpm bench team-retrieval`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { unpackChunkText } from "../src/search/session-index/chunk-text.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { connectTeam, type TeamClient } from "../src/team/connect.ts";
import { addTeamMember } from "../src/team/members.ts";
import { migrateTeamSchema } from "../src/team/migrate.ts";
import { startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { insertTeamSessions, type TeamFixtureSession } from "../tests/helpers/team-fixture.ts";
import { findLocomoDir, loadLocomo } from "./locomo-data.ts";
import { type QueryOutcome, summarizeByCategory } from "./retrieval-metrics.ts";

const MEMBERS = ["ann", "ben", "cat"];
const HEADLINE_EXCLUDES = ["adversarial"];

export async function run(): Promise<Record<string, unknown>> {
  const dir = findLocomoDir();
  if (dir === null) return { skipped: "LoCoMo eval data not found (../shared/eval/locomo, or set CTX_EVAL_DIR)" };
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const pg = started.cluster;
  const data = loadLocomo(dir);
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-team-retrieval-"));
  const clients: TeamClient[] = [];
  try {
    const env = { ...process.env, CTX_HOME: home, CTX_LOG_LEVEL: "silent" };
    const dbPath = join(home, "index.db");
    await syncIndex({ claudeDir: data.claudeDir, dbPath });

    const as = async (role: string) => {
      const client = await connectTeam(pg.url(role, `${role}-pw`, "library"), { connectTimeoutMs: 5_000 });
      clients.push(client);
      return client;
    };
    for (const role of ["owner", ...MEMBERS]) await pg.createRole(role, `${role}-pw`);
    await pg.sql('CREATE DATABASE library OWNER "owner"');
    const admin = await as("owner");
    await migrateTeamSchema(admin);
    for (const role of MEMBERS) await addTeamMember(admin, { role, team: "eval" });

    // Every indexed session with its chunks, as the local index holds them (redacted, chunked), dealt to members.
    const index = openSessionIndex(dbPath, { readonly: true });
    const sessions: TeamFixtureSession[] = [];
    const chunkRows = index.db.prepare(
      "SELECT text, memory_type, last_uuid FROM chunks WHERE session_id = ? ORDER BY source, chunk_index",
    );
    for (const row of index.db.prepare("SELECT id FROM sessions ORDER BY id").all() as { id: string }[]) {
      const session = index.getSession(row.id);
      if (session === null) continue;
      const chunks = (
        chunkRows.all(row.id) as { text: string | Uint8Array; memory_type: string | null; last_uuid: string | null }[]
      ).map((chunk) => ({
        text: unpackChunkText(chunk.text),
        ...(chunk.memory_type === null ? {} : { memoryType: chunk.memory_type as "PATTERN" }),
        ...(chunk.last_uuid === null ? {} : { lastUuid: chunk.last_uuid }),
      }));
      sessions.push({
        id: session.id,
        remote: `github.com/eval/${session.project}`,
        title: session.title,
        startedAt: new Date(session.createdAt),
        endedAt: new Date(session.updatedAt),
        chunks,
      });
    }
    const newest = Math.max(...sessions.map((s) => s.endedAt?.getTime() ?? 0));
    index.close();
    for (const [i, role] of MEMBERS.entries()) {
      await insertTeamSessions(
        await as(role),
        "eval",
        sessions.filter((_, n) => n % MEMBERS.length === i),
      );
    }
    await admin.query("ANALYZE ctx_team.chunks");

    const base = defaultConfig();
    const config = { ...base, team: { ...base.team, url: pg.url("ann", "ann-pw", "library"), name: "eval" } };
    const now = newest + 60_000;
    const measure = async (scope: "local" | "team") => {
      const outcomes: QueryOutcome[] = [];
      const notices = new Set<string>();
      let fromTeam = 0;
      let shown = 0;
      const t = performance.now();
      for (const q of data.queries) {
        const result = await runForkDetect(
          { query: q.query, limit: 10, scope },
          { config, env, projectRoot: home, now: () => now, claudeDir: data.claudeDir, refreshBudgetMs: 0 },
        );
        for (const notice of result.notices) notices.add(notice);
        shown += result.candidates.length;
        fromTeam += result.candidates.filter((c) => c.team !== undefined).length;
        outcomes.push({
          category: q.category_name,
          ranked: result.candidates.map((c) => c.sessionId),
          relevant: q.relevant_session_ids,
          evidenceSessions: q.evidenceSessions,
        });
      }
      const msPerQuery = Math.round(((performance.now() - t) / data.queries.length) * 100) / 100;
      const origin = { shown, fromTeam };
      return { ...summarizeByCategory(outcomes, HEADLINE_EXCLUDES), msPerQuery, notices: [...notices], origin };
    };
    const local = await measure("local");
    const team = await measure("team");
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return {
      goal: "team within 0.01 of local on hit@5 and hit@1",
      data: { dir, sessions: sessions.length, queries: data.queries.length, members: MEMBERS.length },
      local: local.overall,
      team: team.overall,
      difference: {
        hitAt1: round(team.overall.hitAt1 - local.overall.hitAt1),
        hitAt5: round(team.overall.hitAt5 - local.overall.hitAt5),
      },
      msPerQuery: { local: local.msPerQuery, team: team.msPerQuery },
      /** Results shown, and how many came from the team server (scope team: all of them). */
      origin: { local: local.origin, team: team.origin },
      notices: team.notices,
    };
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await pg.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
