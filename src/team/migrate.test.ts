// ctx's schema on a real PostgreSQL (tests/helpers/pg-cluster.ts): created from an empty database, a second run
// changes nothing, two runs at once apply it once (the advisory lock), a failing migration leaves nothing behind,
// and a schema newer than this ctx is refused rather than touched.
import { afterAll, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { messageTexts, readEntries, realTranscriptPaths } from "../../tests/helpers/fixture-messages.ts";
import { startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
import { connectTeam, withTeamClient } from "./connect.ts";
import { chunksRewrite, migrateTeamSchema, readSchemaVersion } from "./migrate.ts";

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
        { relname: "corpus_stats", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "members", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "projects", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "schema_version", relrowsecurity: false, relforcerowsecurity: false },
        { relname: "sessions", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "teams", relrowsecurity: true, relforcerowsecurity: true },
        { relname: "term_stats", relrowsecurity: true, relforcerowsecurity: true },
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
        `SELECT to_regprocedure('ctx_team.search_chunks(bigint,tsquery,tsquery,integer)') AS f,
                to_regprocedure('ctx_team.search_candidates(bigint,tsquery,tsquery,integer,text[])') AS g`,
        "previous",
      );
      expect(search.rows[0]?.f).not.toBeNull();
      expect(search.rows[0]?.g).not.toBeNull();
    });

    it("moves a version 3 server's sessions onto project rows of their own authors (migration 4)", async () => {
      await pg.createDatabase("v3data");
      const url = pg.adminUrl("v3data");
      const v3 = TEAM_MIGRATIONS.filter((m) => m.version <= 3);
      await withTeamClient(url, options, (c) => migrateTeamSchema(c, v3));
      for (const role of ["ann", "ben"]) await pg.createRole(role, `${role}-pw`);
      // Members as version 3's add-member made them (its grants; addTeamMember itself needs the current schema).
      await withTeamClient(url, options, async (c) => {
        await c.query("INSERT INTO ctx_team.teams (name) VALUES ('web')");
        for (const role of ["ann", "ben"]) {
          await c.query(
            `INSERT INTO ctx_team.members (team_id, role_name, handle) SELECT id, '${role}', '${role}' FROM ctx_team.teams`,
          );
          await c.query(`GRANT USAGE ON SCHEMA ctx_team TO ${role}`);
          await c.query(`GRANT SELECT ON ctx_team.teams, ctx_team.members, ctx_team.schema_version TO ${role}`);
          await c.query(
            `GRANT SELECT, INSERT, UPDATE, DELETE ON ctx_team.projects, ctx_team.sessions, ctx_team.chunks, ctx_team.transcripts TO ${role}`,
          );
          await c.query(`GRANT EXECUTE ON FUNCTION ctx_team.member_teams(name) TO ${role}`);
        }
      });
      const as = (role: string, sql: string) =>
        withTeamClient(pg.url(role, `${role}-pw`, "v3data"), options, (c) => c.query(sql));
      // Under version 3, ann added the project first; ben's sessions hang on her row, and she then moved its path.
      await as(
        "ann",
        "INSERT INTO ctx_team.projects (team_id, remote_url) SELECT id, 'github.com/acme/web' FROM ctx_team.teams",
      );
      for (const [role, id] of [
        ["ann", "ann-1"],
        ["ben", "ben-1"],
        ["ben", "ben-2"],
      ] as const)
        await as(
          role,
          `INSERT INTO ctx_team.sessions (team_id, id, project_id) SELECT team_id, '${id}', id FROM ctx_team.projects`,
        );
      await as("ann", "UPDATE ctx_team.projects SET repo_path = '../../tmp/x'");

      const result = await withTeamClient(url, options, (c) => migrateTeamSchema(c));
      expect(result.applied.map((m) => m.version)).toEqual(TEAM_MIGRATIONS.slice(v3.length).map((m) => m.version));
      const sessions = await pg.sql(
        `SELECT s.id, s.author, p.added_by, p.remote_url, p.repo_path FROM ctx_team.sessions s
           JOIN ctx_team.projects p ON p.id = s.project_id ORDER BY s.id`,
        "v3data",
      );
      // Each session's row is its author's; ben's copy keeps the identity his sessions had at migration time.
      expect(sessions.rows).toEqual([
        { id: "ann-1", author: "ann", added_by: "ann", remote_url: "github.com/acme/web", repo_path: "../../tmp/x" },
        { id: "ben-1", author: "ben", added_by: "ben", remote_url: "github.com/acme/web", repo_path: "../../tmp/x" },
        { id: "ben-2", author: "ben", added_by: "ben", remote_url: "github.com/acme/web", repo_path: "../../tmp/x" },
      ]);
      // From now on ann's edits reach only her own sessions, and nobody can hang a session on another's row.
      await as("ann", "UPDATE ctx_team.projects SET repo_path = 'elsewhere'");
      const bens = await pg.sql(
        "SELECT DISTINCT p.repo_path FROM ctx_team.sessions s JOIN ctx_team.projects p ON p.id = s.project_id WHERE s.author = 'ben'",
        "v3data",
      );
      expect(bens.rows).toEqual([{ repo_path: "../../tmp/x" }]);
      await expect(
        as(
          "ben",
          "INSERT INTO ctx_team.sessions (team_id, id, project_id) SELECT team_id, 'ben-3', id FROM ctx_team.projects WHERE added_by = 'ann'",
        ),
      ).rejects.toThrow(/sessions_project_of_author/);
    });

    it("keeps each chunk's tsvector in its row from version 15, and names the rewrite that moves older chunks there", async () => {
      await pg.createDatabase("layout");
      const url = pg.adminUrl("layout");
      await withTeamClient(url, options, (c) =>
        migrateTeamSchema(
          c,
          TEAM_MIGRATIONS.filter((m) => m.version <= 14),
        ),
      );
      // Read from the table's pages: a value moved to TOAST is a pointer there whose first byte is 1.
      await pg.sql("CREATE EXTENSION pageinspect", "layout");
      const texts = realTranscriptPaths().flatMap((path) => readEntries(path).flatMap(messageTexts));
      let text = "";
      for (let i = 0; text.length < 3_500; i++) text += `${texts[i % texts.length]}\n`;
      const insertChunk = (session: string) =>
        pg.sql(
          `INSERT INTO ctx_team.sessions (team_id, id, project_id) SELECT team_id, '${session}', id FROM ctx_team.projects;
           INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text)
             SELECT team_id, '${session}', 0, 0, 0, 1, $text$${text.slice(0, 3_500)}$text$ FROM ctx_team.projects`,
          "layout",
        );
      await pg.sql(
        `INSERT INTO ctx_team.teams (name) VALUES ('web');
         INSERT INTO ctx_team.projects (team_id, remote_url) SELECT id, 'github.com/acme/web' FROM ctx_team.teams`,
        "layout",
      );
      await insertChunk("before");
      const inRow = async () => {
        const { rows } = await pg.sql(
          `SELECT c.session_id, pg_catalog.get_byte(h.t_attrs[a.attnum], 0) <> 1 AS search,
                  pg_catalog.get_byte(h.t_attrs[k.attnum], 0) <> 1 AS key
             FROM pg_catalog.generate_series(0, (pg_catalog.pg_relation_size('ctx_team.chunks') / 8192 - 1)::int) AS p(n)
             CROSS JOIN LATERAL heap_page_item_attrs(get_raw_page('ctx_team.chunks', p.n), 'ctx_team.chunks'::regclass, false) h
             JOIN pg_catalog.pg_attribute a ON a.attrelid = 'ctx_team.chunks'::regclass AND a.attname = 'search'
             JOIN pg_catalog.pg_attribute k ON k.attrelid = 'ctx_team.chunks'::regclass AND k.attname = 'session_id'
             JOIN ctx_team.chunks c ON c.ctid = pg_catalog.format('(%s,%s)', p.n, h.lp)::tid
            ORDER BY c.session_id`,
          "layout",
        );
        return rows;
      };
      // Version 14: the chunk's tsvector (~3-4 kB) went to TOAST, where ranking it read ~5 buffers instead of one.
      expect(await inRow()).toEqual([{ session_id: "before", search: false, key: true }]);
      const migrated = await withTeamClient(url, options, async (c) => {
        const result = await migrateTeamSchema(c);
        return { ...result, rewrite: await chunksRewrite(c, result.from, result.to) };
      });
      expect(migrated).toMatchObject({ from: 14, to: TEAM_SCHEMA_VERSION });
      expect(migrated.rewrite).toBe("VACUUM (FULL, ANALYZE) ctx_team.chunks");
      // A chunk written from now on keeps it in its row, with its session id; the one before keeps its layout...
      await insertChunk("after");
      expect(await inRow()).toEqual([
        { session_id: "after", search: true, key: true },
        { session_id: "before", search: false, key: true },
      ]);
      // ...until the statement the migration named rewrites the table.
      await pg.sql(migrated.rewrite ?? "", "layout");
      expect(await inRow()).toEqual([
        { session_id: "after", search: true, key: true },
        { session_id: "before", search: true, key: true },
      ]);
      // Nothing to rewrite once the server is past version 15, nor for a schema created at it.
      expect(
        await withTeamClient(url, options, (c) => chunksRewrite(c, TEAM_SCHEMA_VERSION, TEAM_SCHEMA_VERSION)),
      ).toBeNull();
      expect(await withTeamClient(url, options, (c) => chunksRewrite(c, 0, TEAM_SCHEMA_VERSION))).toBeNull();
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
