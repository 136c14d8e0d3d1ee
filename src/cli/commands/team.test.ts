// `ctx team` through the CLI against a real PostgreSQL (tests/helpers/pg-cluster.ts): init twice, add-member, join
// (stored in the user's own config only, and only once the checks pass), status as text and JSON, the password
// never printed, and a repository's .ctx/config.json unable to point a member at another server.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { startPgCluster } from "../../../tests/helpers/pg-cluster.ts";
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from "../../core/team/migrations.ts";
import { TeamStatusSchema } from "../../team/status.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const ALICE_PASSWORD = "alice-Pw#7731";

describe.skipIf(cluster === null)(`ctx team${"skipReason" in started ? ` (${started.skipReason})` : ""}`, () => {
  const pg = cluster as NonNullable<typeof cluster>;
  let root: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const run = (argv: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    runCliCaptured(["team", ...argv], { cwd: root, env: { ...env, ...extraEnv } });
  const adminUrl = () => pg.adminUrl("library");
  const aliceUrl = () => pg.url("alice", ALICE_PASSWORD, "library");
  const userConfig = () => join(home, "config.json");

  beforeAll(async () => {
    await pg.createDatabase("library");
    await pg.createRole("alice", ALICE_PASSWORD);
    await pg.createRole("mallory", "mallory-pw");
    const base = mkdtempSync(join(tmpdir(), "ctx-team-cli-"));
    root = join(base, "repo");
    home = join(base, "ctx-home");
    mkdirSync(join(root, ".git"), { recursive: true });
    env = { CTX_HOME: home, HOME: base };
  });

  it("init creates ctx's schema and says so; a second run finds it up to date", async () => {
    const first = await run(["init", adminUrl()]);
    expect(first.stdout).toBe(
      `postgresql://ctx_admin:***@127.0.0.1:${pg.port}/library: applied ${TEAM_MIGRATIONS.map((m) => `${m.version} (${m.name})`).join(", ")}: schema version 0 -> ${TEAM_SCHEMA_VERSION}\n`,
    );
    const again = await run(["migrate", adminUrl(), "--json"]);
    expect(JSON.parse(again.stdout)).toEqual({
      server: `postgresql://ctx_admin:***@127.0.0.1:${pg.port}/library`,
      from: TEAM_SCHEMA_VERSION,
      to: TEAM_SCHEMA_VERSION,
      applied: [],
      writableSchemas: [],
      rewriteChunks: null,
    });
    expect(again.stderr).toBe("");
  });

  it("migrate names the rewrite that moves chunks pushed before schema 15 into its layout, once", async () => {
    await pg.createDatabase("older");
    const url = pg.adminUrl("older");
    const { migrateTeamSchema } = await import("../../team/migrate.ts");
    const { withTeamClient } = await import("../../team/connect.ts");
    const v14 = TEAM_MIGRATIONS.filter((m) => m.version <= 14);
    await withTeamClient(url, { connectTimeoutMs: 5_000 }, (c) => migrateTeamSchema(c, v14));
    await pg.sql(
      `INSERT INTO ctx_team.teams (name) VALUES ('web');
       INSERT INTO ctx_team.projects (team_id, remote_url) SELECT id, 'github.com/acme/web' FROM ctx_team.teams;
       INSERT INTO ctx_team.sessions (team_id, id, project_id) SELECT team_id, 's1', id FROM ctx_team.projects;
       INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text)
         SELECT team_id, 's1', 0, 0, 0, 1, 'a chunk pushed before' FROM ctx_team.projects`,
      "older",
    );
    const first = await run(["migrate", url, "--json"]);
    expect(JSON.parse(first.stdout)).toMatchObject({
      from: 14,
      rewriteChunks: "VACUUM (FULL, ANALYZE) ctx_team.chunks",
    });
    expect(first.stderr).toContain("note: the chunks pushed before schema 15 keep their tsvector outside the row");
    expect(first.stderr).toContain("run `VACUUM (FULL, ANALYZE) ctx_team.chunks` in psql");
    const again = await run(["migrate", url]);
    expect(again.stderr).toBe("");
  });

  it("init and migrate warn, naming the fix, when other roles may create in public (PostgreSQL 14's default)", async () => {
    await pg.sql("GRANT CREATE ON SCHEMA public TO PUBLIC; GRANT CREATE ON SCHEMA public TO mallory", "library");
    try {
      const again = await run(["migrate", adminUrl(), "--json"]);
      expect(JSON.parse(again.stdout).writableSchemas).toEqual([{ schema: "public", creators: ["PUBLIC", "mallory"] }]);
      expect(again.stderr).toContain("warning: every role (PUBLIC), mallory may create objects in schema public");
      expect(again.stderr).toContain('`REVOKE CREATE ON SCHEMA "public" FROM PUBLIC, "mallory"`');
    } finally {
      await pg.sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC, mallory", "library");
    }
    expect((await run(["migrate", adminUrl()])).stderr).toBe("");
  });

  it("add-member makes a role a member (creating the team) and refuses a role the server does not have", async () => {
    const added = await run(["add-member", "alice", "--team", "web", "--handle", "ally", "--url", adminUrl()]);
    expect(added.stdout).toBe(
      `added alice to team web (new team) as ally\nserver: postgresql://ctx_admin:***@127.0.0.1:${pg.port}/library\n`,
    );
    const again = await run([
      "add-member",
      "alice",
      "--team",
      "web",
      "--handle",
      "ally",
      "--url",
      adminUrl(),
      "--json",
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: false, teamCreated: false, bypassesRowSecurity: false });
    const missing = await rejectedCtxError(run(["add-member", "nobody", "--team", "web", "--url", adminUrl()]));
    expect(missing.code).toBe("TEAM_REFUSED");
    expect(missing.message).toBe('the server has no role named "nobody"');
  });

  it("join refuses a role that is not a member, and stores nothing", async () => {
    const error = await rejectedCtxError(run(["join", pg.url("mallory", "mallory-pw", "library"), "--team", "web"]));
    expect(error.code).toBe("TEAM_REFUSED");
    expect(error.message).toBe('role "mallory" is not a member of team "web" (it may not read ctx\'s schema)');
    expect(error.hint).toBe("the administrator adds it with `ctx team add-member mallory --team web`");
    expect(existsSync(userConfig())).toBe(false);
  });

  it("join with a wrong password says so without printing it, and stores nothing", async () => {
    const wrong = "Wr0ng-Secret-9";
    const error = await rejectedCtxError(run(["join", pg.url("alice", wrong, "library"), "--team", "web"]));
    expect(error.code).toBe("TEAM_UNREACHABLE");
    expect(`${error.message} ${error.hint}`).not.toContain(wrong);
    expect(error.message).toContain(`postgresql://alice:***@127.0.0.1:${pg.port}/library`);
    expect(error.hint).toContain("password was refused");
    expect(existsSync(userConfig())).toBe(false);
  });

  it("join checks the server and stores it in the user's own config, never the project's", async () => {
    const joined = await run(["join", aliceUrl(), "--team", "web"]);
    expect(joined.stdout).toContain("joined team web\n");
    expect(joined.stdout).toContain(`server    postgresql://alice:***@127.0.0.1:${pg.port}/library\n`);
    expect(joined.stdout).toContain("member    alice (handle ally)\n");
    expect(joined.stdout).toContain(`schema    version ${TEAM_SCHEMA_VERSION} (this ctx: ${TEAM_SCHEMA_VERSION})\n`);
    expect(joined.stdout).toContain("writes    projects, sessions, chunks, transcripts (its own rows only)\n");
    expect(joined.stdout).toContain("note: the URL's password is kept in");
    expect(joined.stdout).not.toContain(ALICE_PASSWORD);
    expect(JSON.parse(readFileSync(userConfig(), "utf8"))).toEqual({ team: { url: aliceUrl(), name: "web" } });
    expect(existsSync(join(root, ".ctx", "config.json"))).toBe(false);
  });

  it("status shows the server without its password, the member, the schema and the rows it can see", async () => {
    const text = await run(["status"]);
    expect(text.stdout).toBe(
      [
        `server       postgresql://alice:***@127.0.0.1:${pg.port}/library`,
        "team         web",
        "member       alice (handle ally)",
        `schema       version ${TEAM_SCHEMA_VERSION} (this ctx: ${TEAM_SCHEMA_VERSION})`,
        "members      1",
        "projects     0",
        "sessions     0 (0 yours)",
        "chunks       0",
        "transcripts  0",
        "shared       nothing (`ctx team share` in a project)",
        "outbox       empty",
        "last push    never",
        "",
      ].join("\n"),
    );
    const json = TeamStatusSchema.parse(JSON.parse((await run(["status", "--json"])).stdout));
    expect(json).toMatchObject({
      joined: true,
      reachable: true,
      role: "alice",
      handle: "ally",
      schemaVersion: TEAM_SCHEMA_VERSION,
    });
    expect(JSON.stringify(json)).not.toContain(ALICE_PASSWORD);
  });

  it("ignores a team server set by the repository's own .ctx/config.json", async () => {
    mkdirSync(join(root, ".ctx"), { recursive: true });
    const evil = pg.url("mallory", "mallory-pw", "library");
    writeFileSync(join(root, ".ctx", "config.json"), JSON.stringify({ team: { url: evil, name: "data" } }));
    const json = TeamStatusSchema.parse(JSON.parse((await run(["status", "--json"])).stdout));
    expect(json).toMatchObject({ server: `postgresql://alice:***@127.0.0.1:${pg.port}/library`, team: "web" });
    // Without the user's own setting, the project's is not taken either: this machine has joined nothing.
    const alone = await run(["status", "--json"], { CTX_HOME: join(home, "elsewhere") });
    expect(TeamStatusSchema.parse(JSON.parse(alone.stdout))).toMatchObject({ joined: false, server: null, team: null });
  });

  it("status of an unreachable server says why, without the password, and exits non-zero", async () => {
    const downUrl = `postgresql://alice:${encodeURIComponent(ALICE_PASSWORD)}@127.0.0.1:1/library`;
    const result = await run(["status", "--json"], {
      CTX_TEAM__URL: downUrl,
      CTX_TEAM__CONNECT_TIMEOUT_MS: "1000",
    });
    const json = TeamStatusSchema.parse(JSON.parse(result.stdout));
    expect(result.code).toBe(1);
    expect(json).toMatchObject({
      joined: true,
      reachable: false,
      server: "postgresql://alice:***@127.0.0.1:1/library",
    });
    expect(json.error).toContain("cannot connect to the team server");
    expect(result.stdout).not.toContain(ALICE_PASSWORD);
    expect(result.stdout).not.toContain(encodeURIComponent(ALICE_PASSWORD));
  });
});
