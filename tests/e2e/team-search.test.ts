// Team search on a real PostgreSQL with real member roles: alice (team "web") searches her local index and the
// team's sessions together; bob (handle "bobby", same team) pushed a copy of one of her sessions, so the same text
// on both sides must score the same; carol (team "data") pushed the same words, which alice must never see. Then
// the CLI as scripts and people use it: --json, an unreachable server (a closed port), no team joined.

import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.ts";
import type { Config } from "../../src/config/schema.ts";
import type { TeamCandidatesRequest } from "../../src/core/search/team-candidates.ts";
import { forkDetectReportOf, runForkDetect } from "../../src/search/fork-detect.ts";
import { ForkDetectReportSchema } from "../../src/search/fork-report-schema.ts";
import { resolveIndexPath } from "../../src/search/paths.ts";
import { parseSearchScope } from "../../src/search/search-scope.ts";
import { databaseOf } from "../../src/search/session-index/database.ts";
import { openSessionIndex } from "../../src/search/session-index/session-index.ts";
import { readStoredText } from "../../src/search/session-index/text-dictionary.ts";
import { readUuid } from "../../src/search/session-index/uuid-value.ts";
import { KeptTeamConnection } from "../../src/team/kept-connection.ts";
import { addTeamMember } from "../../src/team/members.ts";
import { migrateTeamSchema } from "../../src/team/migrate.ts";
import { teamCandidatesPort } from "../../src/team/search-port.ts";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { startTeamTestCluster } from "../helpers/team-cluster.ts";
import { insertTeamSessions } from "../helpers/team-fixture.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

const { started, cluster, connectAs } = await startTeamTestCluster();

const NOW = Date.parse("2026-11-22T12:00:00Z");
const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const BOB_COPY = "0b0b0b0b-1111-4222-8333-444455556666";
const CAROL_COPY = "ca401ca4-1111-4222-8333-444455556666";
const QUERY = "start the phoenix server in the background";

const root = mkdtempSync(join(tmpdir(), "ctx-team-search-"));
const claudeDir = join(root, "claude");
writeSampleClaudeDir(claudeDir);
const env: NodeJS.ProcessEnv = {
  HOME: join(root, "home"),
  CTX_HOME: join(root, "ctx-home"),
  CLAUDE_CONFIG_DIR: claudeDir,
};

function configFor(url: string, team = "web"): Config {
  const config = defaultConfig();
  return { ...config, team: { ...config.team, url, name: team } };
}

/** A port nothing listens on: bound, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1));
    });
  });
}

describe.skipIf(cluster === null)(`team search${"skipReason" in started ? ` (${started.skipReason})` : ""}`, () => {
  const pg = cluster as NonNullable<typeof cluster>;
  const aliceUrl = () => pg.url("alice", "alice-pw", "library");
  const portFor = (config: ReturnType<typeof configFor>, kept?: KeptTeamConnection) =>
    teamCandidatesPort(config, env, kept);
  /** `asked`, when given, hears each request sent to the team's port. */
  const search = (
    scope: "local" | "team" | "all",
    query = QUERY,
    limit = 10,
    url = aliceUrl(),
    asked?: TeamCandidatesRequest[],
  ) => {
    const port = portFor(configFor(url));
    return runForkDetect(
      { query, scope, limit },
      {
        config: configFor(url),
        env,
        projectRoot: root,
        now: () => NOW,
        teamCandidates: (request) => {
          asked?.push(request);
          return port(request);
        },
      },
    );
  };

  beforeAll(async () => {
    for (const role of ["owner", "alice", "bob", "carol"]) await pg.createRole(role, `${role}-pw`);
    await pg.sql('CREATE DATABASE library OWNER "owner"');
    const admin = await connectAs("owner");
    await migrateTeamSchema(admin);
    await addTeamMember(admin, { role: "alice", team: "web" });
    await addTeamMember(admin, { role: "bob", team: "web", handle: "bobby" });
    await addTeamMember(admin, { role: "carol", team: "data" });

    // Alice's local index (the sample sessions), then the phoenix session's chunks as her index holds them.
    await search("local");
    const index = openSessionIndex(resolveIndexPath(env), { readonly: true });
    const session = index.getSession(PHOENIX);
    const rows = databaseOf(index)
      .prepare(
        `SELECT c.text, c.last_uuid FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.session_id = ?
         ORDER BY f.path, c.chunk_index`,
      )
      .all(PHOENIX) as { text: string | Uint8Array; last_uuid: string | Uint8Array | null }[];
    const chunks = rows.map((row) => {
      const lastUuid = readUuid(row.last_uuid);
      return { text: readStoredText(databaseOf(index), row.text), ...(lastUuid === null ? {} : { lastUuid }) };
    });
    index.close();
    const copy = {
      remote: "github.com/acme/spotter",
      title: "start phoenix in background (bob's)",
      branch: "main",
      startedAt: new Date(session?.createdAt ?? 0),
      endedAt: new Date(session?.updatedAt ?? 0),
      chunks,
    };
    await insertTeamSessions(await connectAs("bob"), "web", [{ id: BOB_COPY, ...copy }]);
    await insertTeamSessions(await connectAs("carol"), "data", [
      { id: CAROL_COPY, ...copy, remote: "github.com/acme/data" },
    ]);
    // Alice pushed her own phoenix session too: it is local and on the team.
    await insertTeamSessions(await connectAs("alice"), "web", [
      { id: PHOENIX, ...copy, title: "start phoenix in background" },
    ]);
  });

  it("ranks a teammate's session with the local ones, scoring the same text the same", async () => {
    const result = await search("all");
    expect(result.notices).toEqual([]);
    const local = result.candidates.find((c) => c.sessionId === PHOENIX);
    const bob = result.candidates.find((c) => c.sessionId === BOB_COPY);
    expect(local?.team).toBeUndefined();
    expect(bob?.team).toEqual({
      author: "bobby",
      project: "github.com/acme/spotter",
      branch: "main",
      forkable: true,
      local: false,
    });
    // Each side is scored by its own corpus's statistics (the local index's; the team's, here two copies of the same
    // session, where every word is common: docs/team.md "Search"), each calibrated to the same 0..1 scale.
    expect(bob?.components.bestSimilarity).toBeGreaterThan(0);
    expect(local?.components.bestSimilarity).toBeGreaterThan(0);
    expect(bob?.forkCommand).toBe(`ctx fork ${BOB_COPY}`);
    expect(bob?.transcriptExists).toBe(false);
    // Alice's own pushed session is listed once, as the local session it is.
    expect(result.candidates.filter((c) => c.sessionId === PHOENIX)).toHaveLength(1);
    expect(forkDetectReportOf(result).message).toContain("team: by bobby · github.com/acme/spotter · branch main");
  });

  it("with scope team, lists only the team's sessions and says which this machine has", async () => {
    const result = await search("team");
    expect(result.scope).toBe("team");
    const ids = result.candidates.map((c) => c.sessionId);
    expect(ids.sort()).toEqual([BOB_COPY, PHOENIX].sort());
    const mine = result.candidates.find((c) => c.sessionId === PHOENIX);
    expect(mine?.team).toMatchObject({ author: "alice", local: true });
    // Same chunks on the team, scored with the team's statistics, same dates, no lineage: every part of the score is
    // equal, so the two sit side by side.
    const bob = result.candidates.find((c) => c.sessionId === BOB_COPY);
    expect(bob?.components.bestSimilarity).toBeCloseTo(mine?.components.bestSimilarity ?? -1, 12);
    expect(bob?.components.passageSimilarity).toBeCloseTo(mine?.components.passageSimilarity ?? -1, 12);
    expect(bob?.score).toBeCloseTo(mine?.score ?? -1, 12);
    expect(Math.abs((bob?.rank ?? 0) - (mine?.rank ?? 0))).toBe(1);
    // On this machine: it forks as a local session, from its own folder.
    expect(mine?.forkCommand).toBe(`cd /home/marco/projects/spotter && claude --resume ${PHOENIX} --fork-session`);
  });

  it("sends the query's time window to the server as its bounds, and the searched words without the time words", async () => {
    const since2000 = await search("team", `${QUERY} since 1 January 2000`);
    expect(since2000.candidates.map((c) => c.sessionId).sort()).toEqual([BOB_COPY, PHOENIX].sort());
    expect(since2000.understood?.text).toBe(QUERY);
    // The server keeps no session active after 2030: the window holds nothing, so the search widens to every date,
    // and the server is asked again without the window's bounds (the local side widens the same way).
    const asked: TeamCandidatesRequest[] = [];
    const since2030 = await search("team", `${QUERY} since 1 January 2030`, 10, aliceUrl(), asked);
    expect(asked).toHaveLength(2);
    expect(asked[0]?.filters.since).toBeGreaterThan(Date.parse("2029-12-31T00:00:00Z"));
    expect(asked[1]?.filters).toEqual({});
    expect(since2030.widened).toBe("empty");
    expect(since2030.candidates.map((c) => c.sessionId).sort()).toEqual([BOB_COPY, PHOENIX].sort());
    // A window that holds the match is searched once: the server is not asked again.
    asked.length = 0;
    const inWindow = await search("team", `${QUERY} since 1 January 2000`, 10, aliceUrl(), asked);
    expect(asked).toHaveLength(1);
    expect(inWindow.widened).toBe(false);
    // An exclusion leaves out a team session whose returned chunks hold it.
    const without = await search("team", `${QUERY} -phoenix`);
    expect(without.candidates.map((c) => c.sessionId)).not.toContain(BOB_COPY);
  });

  it("never shows another team's sessions (row-level security)", async () => {
    for (const scope of ["team", "all"] as const) {
      const result = await search(scope, "phoenix server background", 20);
      expect(result.candidates.map((c) => c.sessionId)).not.toContain(CAROL_COPY);
    }
    // The search functions answer only for the caller's own teams, whatever team id they are given.
    const alice = await connectAs("alice");
    const teamIds = await pg.sql("SELECT id FROM ctx_team.teams", "library");
    expect(teamIds.rows.length).toBe(2);
    for (const { id } of teamIds.rows as { id: string }[]) {
      for (const call of [
        "ctx_team.search_chunks($1, to_tsquery('english', 'phoenix'), to_tsquery('english', 'phoenix'), 100)",
        "ctx_team.search_candidates($1, to_tsquery('english', 'phoenix'), to_tsquery('english', 'phoenix'), 100, ARRAY['phoenix'])",
      ]) {
        const { rows } = await alice.query<{ session_id: string }>(`SELECT session_id FROM ${call}`, [id]);
        expect(rows.map((row) => row.session_id)).not.toContain(CAROL_COPY);
      }
    }
    // Asking as a team alice is not in gives a notice, never carol's rows.
    const other = await runForkDetect(
      { query: QUERY, scope: "team" },
      {
        config: configFor(aliceUrl(), "data"),
        env,
        projectRoot: root,
        now: () => NOW,
        teamCandidates: portFor(configFor(aliceUrl(), "data")),
      },
    );
    expect(other.candidates).toEqual([]);
    expect(other.notices).toHaveLength(1);
    expect(other.notices[0]).toContain('not a member of team "data"');
  });

  it("goes on with local results and one notice when the server does not answer", async () => {
    const port = await closedPort();
    const result = await search("all", QUERY, 5, `postgresql://alice:alice-pw@127.0.0.1:${port}/library`);
    expect(result.candidates[0]?.sessionId).toBe(PHOENIX);
    expect(result.candidates.every((c) => c.team === undefined)).toBe(true);
    expect(result.notices).toHaveLength(1);
    expect(result.notices[0]).toMatch(/^team results left out: cannot connect to the team server/);
    expect(result.notices[0]).not.toContain("alice-pw");
  });

  it("ctx serve's kept connection is reused; one the server dropped costs one notice, then it reconnects", async () => {
    const kept = new KeptTeamConnection();
    const config = configFor(aliceUrl());
    const options = { config, env, projectRoot: root, now: () => NOW, teamCandidates: portFor(config, kept) };
    const backends = async () =>
      Number((await pg.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE usename = 'alice'")).rows[0]?.n);
    const before = await backends();
    try {
      for (let i = 0; i < 3; i++) {
        expect((await runForkDetect({ query: QUERY, scope: "team" }, options)).notices).toEqual([]);
      }
      expect(await backends()).toBe(before + 1);
      await pg.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'alice'");
      const dropped = await runForkDetect({ query: QUERY, scope: "team" }, options);
      expect(dropped.notices).toHaveLength(1);
      const again = await runForkDetect({ query: QUERY, scope: "team" }, options);
      expect(again.notices).toEqual([]);
      expect(again.candidates.map((c) => c.sessionId)).toContain(BOB_COPY);
    } finally {
      await kept.close();
    }
  });

  it("a search on a connection of its own returns before the server closes it, and leaves no server process", async () => {
    const config = configFor(aliceUrl());
    const options = { config, env, projectRoot: root, now: () => NOW, teamCandidates: portFor(config) };
    const backends = async () =>
      Number((await pg.sql("SELECT count(*) AS n FROM pg_stat_activity WHERE usename = 'alice'")).rows[0]?.n);
    const before = await backends();
    const result = await runForkDetect({ query: QUERY, scope: "team" }, options);
    expect(result.notices).toEqual([]);
    expect(result.candidates.map((c) => c.sessionId)).toContain(BOB_COPY);
    // The connection is ended in the background (src/team/connect.ts withTeamClient): its server process goes soon.
    const deadline = Date.now() + 5_000;
    while ((await backends()) > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await backends()).toBe(before);
  });

  it("refuses a team search with no team joined, and an unknown scope", async () => {
    await expect(
      runForkDetect(
        { query: QUERY, scope: "all" },
        { config: defaultConfig(), env, projectRoot: root, now: () => NOW },
      ),
    ).rejects.toMatchObject({ code: "USAGE", hint: expect.stringContaining("ctx team join") });
    expect(() => parseSearchScope("everywhere")).toThrow(/scope must be local, team or all/);
    expect(parseSearchScope(" ALL ")).toBe("all");
  });

  describe("ctx search (built binary)", () => {
    const cliEnv = () => ({ ...env, CTX_TEAM__URL: aliceUrl(), CTX_TEAM__NAME: "web" });

    it("--team --json: the report's shape, with each team result's origin", async () => {
      // Ten results: the shape is the point, and bob's short copy ranks sixth, below four local sessions.
      const run = await runCtx(["search", ...QUERY.split(" "), "--team", "--json", "--no-refresh", "--limit", "10"], {
        cwd: root,
        env: cliEnv(),
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe("");
      const report = ForkDetectReportSchema.parse(JSON.parse(run.stdout));
      expect(report).toMatchObject({ scope: "all", notices: [] });
      const bob = report.results.find((r) => r.sessionId === BOB_COPY);
      expect(Object.keys(bob?.team ?? {}).sort()).toEqual(["author", "branch", "forkable", "local", "project"]);
      expect(bob?.team?.author).toBe("bobby");
    });

    it("--scope team with a window that holds nothing: widened, the team's sessions of any date", async () => {
      const run = await runCtx(
        ["search", ...QUERY.split(" "), "since", "1", "January", "2090", "--scope", "team", "--json", "--no-refresh"],
        { cwd: root, env: cliEnv() },
      );
      expect(run.code, run.stderr).toBe(0);
      const report = ForkDetectReportSchema.parse(JSON.parse(run.stdout));
      expect(report.understood?.widened).toBe(true);
      expect(report.results.map((r) => r.sessionId).sort()).toEqual([BOB_COPY, PHOENIX].sort());
    });

    it("ctx serve's ctx_fork_detect (scope all) brings the team's results through the bundled client, twice on one connection", async () => {
      const client = new Client({ name: "e2e", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CTX_BIN, "serve"],
          env: { PATH: process.env.PATH ?? "", ...cliEnv() },
          cwd: root,
          stderr: "pipe",
        }),
      );
      try {
        for (let round = 0; round < 2; round++) {
          const result = await client.callTool({
            name: "ctx_fork_detect",
            arguments: { query: QUERY, scope: "all", limit: 10 },
          });
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
          const report = ForkDetectReportSchema.parse(result.structuredContent);
          expect(report.notices).toEqual([]);
          expect(report.results.find((r) => r.sessionId === BOB_COPY)?.team?.author).toBe("bobby");
          expect(report.results.map((r) => r.sessionId)).not.toContain(CAROL_COPY);
        }
      } finally {
        await client.close();
      }
    });

    it("an unreachable server: local results on stdout, one notice line on stderr", async () => {
      const port = await closedPort();
      const run = await runCtx(["search", "phoenix", "server", "--team", "--json", "--no-refresh"], {
        cwd: root,
        env: { ...cliEnv(), CTX_TEAM__URL: `postgresql://alice:alice-pw@127.0.0.1:${port}/library` },
      });
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stderr.split("\n").filter((line) => line !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^ctx: team results left out: cannot connect/);
      expect(run.stderr).not.toContain("alice-pw");
      const report = ForkDetectReportSchema.parse(JSON.parse(run.stdout));
      expect(report.results[0]?.sessionId).toBe(PHOENIX);
    });

    it("--team with no team joined says how to join; a bad --scope says what is allowed", async () => {
      const noTeam = await runCtx(["search", "phoenix", "--team"], { cwd: root, env });
      expect(noTeam.code).not.toBe(0);
      expect(noTeam.stderr).toContain("ctx team join");
      const bad = await runCtx(["search", "phoenix", "--scope", "everywhere"], { cwd: root, env });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain("scope must be local, team or all");
    });

    it("a repository's .ctx/config.json cannot turn team search on", async () => {
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const repo = join(root, "repo");
      mkdirSync(join(repo, ".ctx"), { recursive: true });
      writeFileSync(join(repo, ".ctx", "config.json"), JSON.stringify({ search: { scope: "all" } }));
      const run = await runCtx(["search", "phoenix", "server", "--json", "--no-refresh"], { cwd: repo, env: cliEnv() });
      expect(run.code, run.stderr).toBe(0);
      const report = ForkDetectReportSchema.parse(JSON.parse(run.stdout));
      expect(report.scope).toBe("local");
      expect(report.results.every((r) => r.team === undefined)).toBe(true);
    });
  });
});
