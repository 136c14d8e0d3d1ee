// Retrieval parity through the team backend (#23, #31: within 0.01 hit@5 and hit@1 of the local index, for every
// member whatever their own index holds): the LoCoMo dev split (../shared/eval/locomo, as `pnpm bench retrieval`
// reads it; copied only into a temporary folder) dealt to three members, each of whom indexes their share and pushes
// it through the real push (pushPending: the chunks with their terms, which the server counts into the team's
// statistics). Each question then runs through runForkDetect with the shipped ranking: scope `local` over an index of
// the whole split (the reference), and scope `team` searched by a member who holds the whole split locally too, by one
// who has just joined (no index at all), and by one whose index holds only unrelated sessions (the coding sessions of
// ../shared/eval/coding, else the test fixtures). Team chunks are scored with the team's statistics kept on the
// server, so the three team searches should agree with each other and with the local one.
// `pnpm bench team-retrieval`.
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { addSharedProject, readSharedProjects } from "../src/store/team/team-state.ts";
import { connectTeam, type TeamClient } from "../src/team/connect.ts";
import { addTeamMember } from "../src/team/members.ts";
import { migrateTeamSchema } from "../src/team/migrate.ts";
import { pushPending } from "../src/team/push.ts";
import { teamCandidatesPort } from "../src/team/search-port.ts";
import { FIXTURE_CLAUDE_DIR } from "../tests/helpers/claude-projects.ts";
import { startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { findLocomoDir, loadLocomo } from "./locomo-data.ts";
import { type QueryOutcome, summarizeByCategory } from "./retrieval-metrics.ts";

const MEMBERS = ["ann", "ben", "cat"];
/** The member who has just joined (no index), and the one whose index holds unrelated sessions only. */
const NEWCOMER = "dan";
const UNRELATED = "eve";
const HEADLINE_EXCLUDES = ["adversarial"];
/** The LoCoMo transcripts' working folders are under /home/user: one shared project for the whole split. */
const LOCOMO_ROOT = "/home/user";

export async function run(): Promise<Record<string, unknown>> {
  const dir = findLocomoDir();
  if (dir === null) return { skipped: "LoCoMo eval data not found (../shared/eval/locomo, or set CTX_EVAL_DIR)" };
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const pg = started.cluster;
  const data = loadLocomo(dir);
  const home = realpathSync(mkdtempSync(join(tmpdir(), "ctx-bench-team-retrieval-")));
  const clients: TeamClient[] = [];
  try {
    const env = { ...process.env, CTX_HOME: join(home, "whole"), CTX_LOG_LEVEL: "silent" };
    await syncIndex({ claudeDir: data.claudeDir, dbPath: join(env.CTX_HOME, "index.db") });

    const as = async (role: string) => {
      const client = await connectTeam(pg.url(role, `${role}-pw`, "library"), { connectTimeoutMs: 5_000 });
      clients.push(client);
      return client;
    };
    const everyone = [...MEMBERS, NEWCOMER, UNRELATED];
    for (const role of ["owner", ...everyone]) await pg.createRole(role, `${role}-pw`);
    await pg.sql('CREATE DATABASE library OWNER "owner"');
    const admin = await as("owner");
    await migrateTeamSchema(admin);
    for (const role of everyone) await addTeamMember(admin, { role, team: "eval" });
    const memberEnv = (role: string) => ({
      ...process.env,
      HOME: join(home, role),
      CTX_HOME: join(home, role, "ctx"),
      CTX_LOG_LEVEL: "silent",
    });

    // The split's sessions dealt to three members (session n to member n mod 3), each with a Claude folder of their
    // own share, indexed with the project shared and pushed through pushPending.
    const pushStarted = performance.now();
    let pushedChunks = 0;
    for (const [i, role] of MEMBERS.entries()) {
      const claudeDir = join(home, role, "claude");
      for (const [n, session] of data.sessions.entries()) {
        if (n % MEMBERS.length !== i) continue;
        const target = join(claudeDir, session.path);
        mkdirSync(dirname(target), { recursive: true });
        cpSync(join(data.claudeDir, session.path), target);
      }
      const roleEnv = memberEnv(role);
      const dbPath = join(roleEnv.CTX_HOME, "index.db");
      await addSharedProject(roleEnv, { remoteUrl: "github.com/eval/locomo", repoPath: "" }, LOCOMO_ROOT);
      await syncIndex({ claudeDir, dbPath, teamShare: { roots: [LOCOMO_ROOT] } });
      const summary = await pushPending({
        url: pg.url(role, `${role}-pw`, "library"),
        team: "eval",
        connectTimeoutMs: 5_000,
        env: roleEnv,
        dbPath,
        shared: await readSharedProjects(roleEnv),
        maxTranscriptMegabytes: 20,
      });
      pushedChunks += summary.chunks;
    }
    const pushMs = Math.round(performance.now() - pushStarted);
    await admin.query("ANALYZE ctx_team.chunks");
    const { rows: counted } = await admin.query<{ chunks: string }>(
      "SELECT pg_catalog.sum(chunks)::text AS chunks FROM ctx_team.corpus_stats",
    );

    // The member with unrelated sessions indexes them (the coding split, else the test fixtures); the newcomer has
    // nothing.
    const codingDir = join(dirname(dir), "coding", "claude");
    const unrelatedDir = existsSync(join(codingDir, "projects")) ? codingDir : FIXTURE_CLAUDE_DIR;
    await syncIndex({ claudeDir: unrelatedDir, dbPath: join(memberEnv(UNRELATED).CTX_HOME, "index.db") });
    const emptyClaude = join(home, NEWCOMER, "claude");
    mkdirSync(emptyClaude, { recursive: true });

    const newest = Math.max(...data.sessions.map((s) => Date.parse(s.start) + 86_400_000));
    const base = defaultConfig();
    const configOf = (role: string) => ({
      ...base,
      team: { ...base.team, url: pg.url(role, `${role}-pw`, "library"), name: "eval" },
    });
    const now = newest + 60_000;
    const measure = async (
      scope: "local" | "team" | "all",
      role: string,
      searchEnv: NodeJS.ProcessEnv,
      claudeDir: string,
    ) => {
      const outcomes: QueryOutcome[] = [];
      const notices = new Set<string>();
      let fromTeam = 0;
      let shown = 0;
      const t = performance.now();
      for (const q of data.queries) {
        const result = await runForkDetect(
          { query: q.query, limit: 10, scope },
          {
            config: configOf(role),
            env: searchEnv,
            projectRoot: home,
            now: () => now,
            claudeDir,
            refreshBudgetMs: 0,
            teamCandidates: teamCandidatesPort(configOf(role), searchEnv),
          },
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
      const summary = summarizeByCategory(outcomes, HEADLINE_EXCLUDES);
      return {
        overall: { ...summary.overall, hitAt3: hitAt(outcomes, 3, HEADLINE_EXCLUDES) },
        byCategory: Object.fromEntries(
          Object.entries(summary.byCategory).map(([category, metrics]) => [
            category,
            {
              hitAt1: metrics.hitAt1,
              hitAt3: hitAt(
                outcomes.filter((o) => o.category === category),
                3,
              ),
              hitAt5: metrics.hitAt5,
            },
          ]),
        ),
        msPerQuery,
        notices: [...notices],
        origin: { shown, fromTeam },
      };
    };
    const local = await measure("local", MEMBERS[0] as string, env, data.claudeDir);
    const teamFull = await measure("team", MEMBERS[0] as string, env, data.claudeDir);
    const teamEmpty = await measure("team", NEWCOMER, memberEnv(NEWCOMER), emptyClaude);
    const teamUnrelated = await measure("team", UNRELATED, memberEnv(UNRELATED), unrelatedDir);
    // `ctx search --team` (scope all): the team's sessions ranked with the member's own.
    const allEmpty = await measure("all", NEWCOMER, memberEnv(NEWCOMER), emptyClaude);
    const allUnrelated = await measure("all", UNRELATED, memberEnv(UNRELATED), unrelatedDir);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    const difference = (team: typeof local) => ({
      hitAt1: round(team.overall.hitAt1 - local.overall.hitAt1),
      hitAt5: round(team.overall.hitAt5 - local.overall.hitAt5),
    });
    return {
      goal: "team within 0.01 of local on hit@5 and hit@1, for a member with the whole split, none, or unrelated sessions",
      data: {
        dir,
        sessions: data.sessions.length,
        queries: data.queries.length,
        members: MEMBERS.length,
        pushedChunks,
        countedChunks: Number(counted[0]?.chunks ?? 0),
        pushMs,
        unrelatedSessions: unrelatedDir,
      },
      local: local.overall,
      team: teamFull.overall,
      teamEmpty: teamEmpty.overall,
      teamUnrelated: teamUnrelated.overall,
      allEmpty: allEmpty.overall,
      allUnrelated: allUnrelated.overall,
      difference: difference(teamFull),
      differenceEmpty: difference(teamEmpty),
      differenceUnrelated: difference(teamUnrelated),
      differenceAllEmpty: difference(allEmpty),
      differenceAllUnrelated: difference(allUnrelated),
      byCategory: {
        local: local.byCategory,
        team: teamFull.byCategory,
        teamEmpty: teamEmpty.byCategory,
        teamUnrelated: teamUnrelated.byCategory,
        allEmpty: allEmpty.byCategory,
        allUnrelated: allUnrelated.byCategory,
      },
      msPerQuery: {
        local: local.msPerQuery,
        team: teamFull.msPerQuery,
        teamEmpty: teamEmpty.msPerQuery,
        teamUnrelated: teamUnrelated.msPerQuery,
        allEmpty: allEmpty.msPerQuery,
        allUnrelated: allUnrelated.msPerQuery,
      },
      /** Results shown, and how many came from the team server (scope team: all of them). */
      origin: {
        local: local.origin,
        team: teamFull.origin,
        teamEmpty: teamEmpty.origin,
        teamUnrelated: teamUnrelated.origin,
        allEmpty: allEmpty.origin,
        allUnrelated: allUnrelated.origin,
      },
      notices: {
        team: teamFull.notices,
        teamEmpty: teamEmpty.notices,
        teamUnrelated: teamUnrelated.notices,
        allEmpty: allEmpty.notices,
        allUnrelated: allUnrelated.notices,
      },
    };
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await pg.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Share of questions (categories in `excludes` left out) with a relevant session in the first k. */
function hitAt(outcomes: readonly QueryOutcome[], k: number, excludes: readonly string[] = []): number {
  const kept = outcomes.filter((o) => !excludes.includes(o.category));
  if (kept.length === 0) return 0;
  const hits = kept.filter((o) => o.ranked.slice(0, k).some((id) => o.relevant.includes(id))).length;
  return Math.round((hits / kept.length) * 1000) / 1000;
}
