// ctx's schema on a real PostgreSQL (tests/helpers/pg-cluster.ts): created from an empty database, a second run
// changes nothing, two runs at once apply it once (the advisory lock), a failing migration leaves nothing behind,
// and a schema newer than this ctx is refused rather than touched.
import { afterAll, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
import { connectTeam, withTeamClient } from "./connect.ts";
import { migrateTeamSchema, readSchemaVersion } from "./migrate.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());
const options = { connectTimeoutMs: 5_000 };

describe.skipIf(cluster === null)(
  `team schema migrations${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;

    it("creates the schema in an empty database, and a second run changes nothing", async () => {
      await pg.createDatabase("fresh");
      const url = pg.adminUrl("fresh");
      const first = await withTeamClient(url, options, (c) => migrateTeamSchema(c));
      expect(first).toEqual({
        from: 0,
        to: TEAM_SCHEMA_VERSION,
        applied: TEAM_MIGRATIONS.map(({ version, name }) => ({ version, name })),
      });
      const second = await withTeamClient(url, options, (c) => migrateTeamSchema(c));
      expect(second).toEqual({ from: TEAM_SCHEMA_VERSION, to: TEAM_SCHEMA_VERSION, applied: [] });
      const tables = await pg.sql(
        `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'ctx_team' AND c.relkind = 'r' ORDER BY c.relname`,
        "fresh",
      );
      expect(tables.rows).toEqual([
        { relname: "chunks", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "members", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "projects", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "schema_version", relrowsecurity: false, relforcerowsecurity: false },
        { relname: "sessions", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "teams", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "transcripts", relrowsecurity: true, relforcerowsecurity: true },
      ]);
      const versions = await pg.sql("SELECT version FROM ctx_team.schema_version", "fresh");
      expect(versions.rows).toEqual(TEAM_MIGRATIONS.map(({ version }) => ({ version })));
      const gin = await pg.sql("SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_search'", "fresh");
      expect(gin.rows[0]?.indexdef).toContain("USING gin (search)");
    });

    it("applies the migrations once when two administrators run them at the same time", async () => {
      await pg.createDatabase("racing");
      const url = pg.adminUrl("racing");
      const results = await Promise.all([1, 2, 3].map(() => withTeamClient(url, options, (c) => migrateTeamSchema(c))));
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, TEAM_MIGRATIONS.length]);
      expect((await pg.sql("SELECT count(*)::int AS n FROM ctx_team.schema_version", "racing")).rows).toEqual([
        { n: TEAM_MIGRATIONS.length },
      ]);
    });

    it("leaves the server as it was when a migration fails", async () => {
      await pg.createDatabase("broken");
      const url = pg.adminUrl("broken");
      await withTeamClient(url, options, (c) => migrateTeamSchema(c));
      const broken = [
        ...TEAM_MIGRATIONS,
        {
          version: TEAM_SCHEMA_VERSION + 1,
          name: "half",
          sql: "CREATE TABLE ctx_team.half (id int); SELECT no_such_function();",
        },
      ];
      const client = await connectTeam(url, options);
      try {
        await expect(migrateTeamSchema(client, broken)).rejects.toThrow(/no_such_function/);
        expect(await readSchemaVersion(client)).toBe(TEAM_SCHEMA_VERSION);
        const half = await client.query("SELECT to_regclass('ctx_team.half') AS t");
        expect(half.rows[0]?.t).toBeNull();
      } finally {
        await client.end();
      }
    });

    it("upgrades a server at version 1 with what came after it", async () => {
      await pg.createDatabase("previous");
      const url = pg.adminUrl("previous");
      await withTeamClient(url, options, (c) => migrateTeamSchema(c, TEAM_MIGRATIONS.slice(0, 1)));
      const result = await withTeamClient(url, options, (c) => migrateTeamSchema(c));
      expect(result).toMatchObject({ from: 1, to: TEAM_SCHEMA_VERSION });
      expect(result.applied.map((m) => m.version)).toEqual(TEAM_MIGRATIONS.slice(1).map((m) => m.version));
      const search = await pg.sql(
        "SELECT to_regprocedure('ctx_team.search_chunks(bigint,tsquery,tsquery,integer)') AS f",
        "previous",
      );
      expect(search.rows[0]?.f).not.toBeNull();
    });

    it("refuses to touch a schema newer than this ctx", async () => {
      await pg.createDatabase("newer");
      const url = pg.adminUrl("newer");
      await withTeamClient(url, options, (c) => migrateTeamSchema(c));
      await pg.sql("INSERT INTO ctx_team.schema_version (version, name) VALUES (99, 'from the future')", "newer");
      const error = await rejectedCtxError(withTeamClient(url, options, (c) => migrateTeamSchema(c)));
      expect(error.code).toBe("TEAM_REFUSED");
      expect(error.message).toContain("version 99, newer than this ctx knows");
    });

    it("reads no version from a database without ctx's schema", async () => {
      await pg.createDatabase("empty");
      expect(await withTeamClient(pg.adminUrl("empty"), options, (c) => readSchemaVersion(c))).toBeNull();
    });
  },
);
