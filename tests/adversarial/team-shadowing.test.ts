// A hostile member of ANOTHER team on a server where every role may create in `public` (PostgreSQL 14's default,
// here `GRANT CREATE ON SCHEMA public TO PUBLIC` on 15): they plant, in `public`, a function shadowing every function
// ctx's SQL calls (the list is read from ctx's own SQL text, so a new call is covered when it is written), each of
// which counts its runs on a sequence (not rolled back with the caller), tries to copy the caller's chunks out and to
// make the attacker a member of every team. Then the victim and the administrator run everything ctx does on the
// server: init (a fresh database), migrate, add-member, join, status, search, push, fork's fetch, forget. Nothing of
// the attacker's may run, no row may move, membership must not change (issue 31 §1; src/team/connect.ts pins the
// search_path). Also: a lock held by that member ends status and push at team.lockTimeoutMs with the outbox kept
// (§3), and a URL's sslpassword is never shown, logged or stored (§3).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSessionIndex } from "../../src/search/session-index/session-index.ts";
import { enqueueSessionsUnder, outboxDepth } from "../../src/search/session-index/team-outbox.ts";
import { syncIndex } from "../../src/search/sync/sync-index.ts";
import { readSharedProjects, sharedRootsForIngest } from "../../src/store/team/team-state.ts";
import { connectTeam, TEAM_SEARCH_PATH, withTeamClient } from "../../src/team/connect.ts";
import { fetchTeamSession } from "../../src/team/fork-session.ts";
import { findMembership } from "../../src/team/inspect.ts";
import { pushPending } from "../../src/team/push.ts";
import { searchTeam } from "../../src/team/search.ts";
import { addMember, joinCheck, migrateTeam, teamStatus } from "../../src/team/service.ts";
import { forgetSessions, shareProject } from "../../src/team/share.ts";
import { runCtx } from "../e2e/ctx-process.ts";
import { FIXTURE } from "../helpers/claude-projects.ts";
import { rejectedCtxError } from "../helpers/ctx-error.ts";
import { startPgCluster } from "../helpers/pg-cluster.ts";
import { createTeamCheckout } from "../helpers/team-checkout.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const OPTIONS = { connectTimeoutMs: 5_000 };

/** Every name ctx's SQL calls like a function: read from the source of src/team/ and the migrations. */
function calledNames(): string[] {
  const root = new URL("../../src/", import.meta.url);
  const files = [
    ...readdirSync(new URL("team/", root))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => new URL(`team/${f}`, root)),
    new URL("core/team/migrations.ts", root),
  ];
  const names = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/\b([a-z_][a-z0-9_]*)\s*\(/g))
      names.add(match[1] as string);
  }
  return [...names].sort();
}

interface Overload {
  name: string;
  args: string[];
  returns: string;
  setof: boolean;
}

// Polymorphic types become text (their array: text[]); pseudo-types a function cannot take in plpgsql are skipped.
const CONCRETE: Record<string, string> = {
  anyelement: "text",
  anycompatible: "text",
  anynonarray: "text",
  anyarray: "text[]",
  anycompatiblearray: "text[]",
};

/** pg_catalog's plain functions with those names, whose argument and result types a planted copy can take. */
async function overloadsOf(client: pg.Client, names: readonly string[]): Promise<Overload[]> {
  const { rows } = await client.query<{ name: string; args: string[]; returns: string; setof: boolean; ok: boolean }>(
    `SELECT p.proname::text AS name,
            ARRAY(SELECT pg_catalog.format_type(t, NULL) FROM pg_catalog.unnest(p.proargtypes::pg_catalog.oid[]) t)
              AS args,
            pg_catalog.format_type(p.prorettype, NULL) AS returns, p.proretset AS setof,
            p.pronargdefaults = 0 AND p.provariadic = 0 AS ok
       FROM pg_catalog.pg_proc p
      WHERE p.pronamespace = 'pg_catalog'::pg_catalog.regnamespace AND p.prokind = 'f'
        AND p.proname = ANY($1::pg_catalog.name[])`,
    [names],
  );
  const usable = (type: string) =>
    CONCRETE[type] ?? (/^(any|internal|cstring|record|trigger|"any")/.test(type) ? null : type);
  const found: Overload[] = [];
  for (const row of rows) {
    const args = row.args.map(usable);
    const returns = usable(row.returns);
    if (!row.ok || returns === null || args.some((a) => a === null)) continue;
    found.push({ name: row.name, args: args as string[], returns, setof: row.setof });
  }
  return found;
}

/** The attacker's copies: for each overload one taking exactly its types and one taking text in every position. */
function plantingSql(overloads: readonly Overload[]): { sql: string; signatures: string[] } {
  const seen = new Set<string>();
  const statements: string[] = [];
  for (const overload of overloads) {
    for (const args of [overload.args, overload.args.map(() => "text")]) {
      const key = `${overload.name}(${args.join(",")})`;
      if (seen.has(key)) continue;
      seen.add(key);
      const params = args.map((type, i) => `a${i} ${type}`).join(", ");
      const call = `pg_catalog.${overload.name}(${args.map((_, i) => `a${i}::${overload.args[i]}`).join(", ")})`;
      const give = overload.setof
        ? `RETURN QUERY SELECT * FROM ${call};`
        : overload.returns === "void"
          ? `PERFORM ${call};`
          : `RETURN ${call};`;
      statements.push(`CREATE FUNCTION public.${overload.name}(${params}) RETURNS ${overload.setof ? "SETOF " : ""}${overload.returns}
  LANGUAGE plpgsql AS $planted$
BEGIN
  PERFORM pg_catalog.nextval('mallory.ran'::pg_catalog.regclass);
  BEGIN
    INSERT INTO mallory.loot (who, what) SELECT current_user, c.text FROM ctx_team.chunks c;
  EXCEPTION WHEN OTHERS THEN NULL;
  END;
  BEGIN
    INSERT INTO ctx_team.members (team_id, role_name, handle)
      SELECT t.id, 'mallory', 'mallory in ' OPERATOR(pg_catalog.||) t.id::text FROM ctx_team.teams t
      ON CONFLICT DO NOTHING;
  EXCEPTION WHEN OTHERS THEN NULL;
  END;
  ${give}
END
$planted$;`);
    }
  }
  return { sql: statements.join("\n"), signatures: [...seen] };
}

describe.skipIf(cluster === null)(
  `a member of another team who may create in public${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const server = cluster as NonNullable<typeof cluster>;
    const adminUrl = (db = "library") => server.adminUrl(db);
    const aliceUrl = () => server.url("alice", "alice-pw", "library");
    const sql = async (text: string, db = "library") => (await server.sql(text, db)).rows;
    let base: string;
    let repo: string;
    let claudeDir: string;
    let env: NodeJS.ProcessEnv;
    let dbPath: string;
    const sessionIds: string[] = [];
    let planted: string[] = [];
    let membersBefore: unknown[] = [];

    const pushOptions = async () => ({
      url: aliceUrl(),
      team: "web",
      connectTimeoutMs: 5_000,
      env,
      dbPath,
      shared: await readSharedProjects(env),
      maxTranscriptMegabytes: 20,
    });
    const requeue = () => {
      const local = openSessionIndex(dbPath);
      try {
        enqueueSessionsUnder(local, [repo]);
        return outboxDepth(local).items;
      } finally {
        local.close();
      }
    };
    const depth = () => {
      const local = openSessionIndex(dbPath, { readonly: true });
      try {
        return outboxDepth(local).items;
      } finally {
        local.close();
      }
    };
    const members = (db = "library") =>
      sql("SELECT team_id, role_name::text, handle FROM ctx_team.members ORDER BY team_id, role_name", db);
    /**
     * What the attacker got since the last look: runs counted (never rolled back), rows copied, teams joined. The
     * traces are cleared afterwards, so each step is judged on its own.
     */
    const expectNothingOfTheAttackers = async (db = "library") => {
      try {
        const [ran] = await sql("SELECT last_value, is_called FROM mallory.ran", db);
        expect(ran?.is_called ? Number(ran.last_value) : 0, "planted functions that ran").toBe(0);
        expect(await sql("SELECT who, what FROM mallory.loot", db), "rows copied out").toEqual([]);
        const teams = await sql(
          "SELECT t.name FROM ctx_team.members m JOIN ctx_team.teams t ON t.id = m.team_id WHERE m.role_name = 'mallory'",
          db,
        );
        expect(teams, "the attacker's teams").toEqual([{ name: "other" }]);
      } finally {
        await sql(
          `ALTER SEQUENCE mallory.ran RESTART; TRUNCATE mallory.loot;
           DELETE FROM ctx_team.members m USING ctx_team.teams t
            WHERE t.id = m.team_id AND m.role_name = 'mallory' AND t.name <> 'other'`,
          db,
        );
      }
    };
    const plant = async (db: string) => {
      const client = new pg.Client({ connectionString: server.url("mallory", "mallory-pw", db) });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA mallory;
          CREATE SEQUENCE mallory.ran;
          CREATE TABLE mallory.loot (who text, what text);
          GRANT USAGE ON SCHEMA mallory TO PUBLIC;
          GRANT USAGE, UPDATE ON SEQUENCE mallory.ran TO PUBLIC;
          GRANT INSERT ON mallory.loot TO PUBLIC;`);
        const planting = plantingSql(await overloadsOf(client, calledNames()));
        await client.query(planting.sql);
        return planting.signatures;
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      await server.createDatabase("library");
      await server.createDatabase("fresh");
      for (const role of ["alice", "bob", "mallory"]) await server.createRole(role, `${role}-pw`);
      for (const db of ["library", "fresh"]) {
        // PostgreSQL 14's default, and the role may create a schema of its own in the database.
        await sql(`GRANT CREATE ON SCHEMA public TO PUBLIC; GRANT CREATE ON DATABASE ${db} TO mallory`, db);
      }
      await migrateTeam(adminUrl(), OPTIONS);
      await addMember(adminUrl(), OPTIONS, { role: "alice", team: "web" });
      await addMember(adminUrl(), OPTIONS, { role: "mallory", team: "other" });
      base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-team-shadowing-")));
      const checkout = createTeamCheckout({
        base,
        name: "spotter",
        remote: "https://github.com/acme/spotter.git",
        files: [FIXTURE.short, FIXTURE.toolHeavy],
      });
      ({ repo, claudeDir } = checkout);
      sessionIds.push(...checkout.ids);
      env = { CTX_HOME: join(base, "ctx-home"), HOME: base, CTX_TEAM__URL: aliceUrl(), CTX_TEAM__NAME: "web" };
      dbPath = join(base, "ctx-home", "index.db");
      await shareProject({ env, folder: repo, dbPath, server: { url: aliceUrl(), team: "web", options: OPTIONS } });
      await syncIndex({ claudeDir, dbPath, teamShare: { roots: await sharedRootsForIngest(env) } });
      const pushed = await pushPending(await pushOptions());
      expect(pushed.sessions).toBe(sessionIds.length);
      // Only now does the attacker plant: what follows is everything a member and the administrator do next.
      planted = await plant("library");
      await plant("fresh");
      membersBefore = await members();
    });

    it("plants a copy of every pg_catalog function ctx's SQL calls (the list is read from ctx's SQL)", () => {
      // plainto_tsquery, pg_advisory_xact_lock, lower, strpos, now, to_timestamp, string_to_array, replace, …
      expect(planted.length).toBeGreaterThan(40);
      // The two of the issue: search's and init's.
      expect(planted).toContain("plainto_tsquery(text,text)");
      expect(planted).toContain("pg_advisory_xact_lock(text)");
      const names = calledNames();
      for (const name of ["plainto_tsquery", "pg_advisory_xact_lock", "lower", "strpos", "now", "string_to_array"]) {
        expect(names).toContain(name);
      }
    });

    it("every connection starts with search_path pg_catalog, pg_temp and JIT off, whatever the role's default says", async () => {
      await server.sql("ALTER ROLE alice SET search_path = public, pg_catalog", "library");
      await server.sql("ALTER ROLE alice SET jit = on", "library");
      const client = await connectTeam(`${aliceUrl()}?options=-c%20search_path%3Dpublic`, OPTIONS);
      try {
        const { rows } = await client.query("SHOW search_path");
        expect(rows[0]?.search_path).toBe(TEAM_SEARCH_PATH);
        const timeouts = await client.query(
          "SELECT current_setting('lock_timeout') AS l, current_setting('statement_timeout') AS s",
        );
        expect(timeouts.rows[0]).toEqual({ l: "5s", s: "2min" });
        // And without JIT (src/team/connect.ts teamSessionSettings), whatever the role's default.
        expect((await client.query("SHOW jit")).rows[0]?.jit).toBe("off");
      } finally {
        await client.end();
        await server.sql("ALTER ROLE alice RESET jit", "library");
      }
    });

    it("ctx team init on a fresh database (public planted) binds nothing of the attacker's", async () => {
      const result = await migrateTeam(adminUrl("fresh"), OPTIONS);
      expect(result.applied.length).toBeGreaterThan(0);
      await addMember(adminUrl("fresh"), OPTIONS, { role: "mallory", team: "other" });
      await addMember(adminUrl("fresh"), OPTIONS, { role: "alice", team: "web" });
      // A CHECK or DEFAULT bound to a planted function would run at every insert: insert as a member.
      await withTeamClient(server.url("alice", "alice-pw", "fresh"), OPTIONS, async (client) => {
        const member = await findMembership(client, "web");
        expect(member).not.toBeNull();
      });
      await expectNothingOfTheAttackers("fresh");
      // …and init warns, naming the fix.
      expect(result.writableSchemas).toContainEqual({ schema: "public", creators: ["PUBLIC"] });
    });

    it("ctx team migrate (again) and add-member, as the administrator", async () => {
      const result = await migrateTeam(adminUrl(), OPTIONS);
      expect(result.applied).toEqual([]);
      await addMember(adminUrl(), OPTIONS, { role: "bob", team: "web" });
      await expectNothingOfTheAttackers();
    });

    it("join and status, as the victim", async () => {
      const joined = await joinCheck(aliceUrl(), OPTIONS, "web");
      expect(joined.rights.write).toContain("sessions");
      const status = await teamStatus(aliceUrl(), OPTIONS, "web");
      expect(status.counts?.sessions).toBe(sessionIds.length);
      await expectNothingOfTheAttackers();
      expect(status.writableSchemas.map((s) => s.schema)).toContain("public");
    });

    it("team search, as the victim", async () => {
      const found = await searchTeam(aliceUrl(), OPTIONS, "web", { query: "phoenix server start", limit: 20 });
      expect(found.chunks.length).toBeGreaterThan(0);
      const filtered = await searchTeam(aliceUrl(), OPTIONS, "web", {
        query: "phoenix server start",
        limit: 20,
        filters: { since: 0 },
        projectContains: "ACME/spotter",
      });
      expect(filtered.chunks.length).toBeGreaterThan(0);
      await expectNothingOfTheAttackers();
    });

    it("push, fork's fetch and forget, as the victim", async () => {
      expect(requeue()).toBeGreaterThan(0);
      const pushed = await pushPending(await pushOptions());
      expect(pushed.sessions).toBe(sessionIds.length);
      const fetched = await withTeamClient(aliceUrl(), OPTIONS, async (client) => {
        const member = await findMembership(client, "web");
        return fetchTeamSession(client, member?.id ?? "", sessionIds[0] as string);
      });
      expect(fetched?.transcript).not.toBeNull();
      const forgotten = await forgetSessions({
        server: { url: aliceUrl(), team: "web", options: OPTIONS },
        dbPath,
        ids: [sessionIds[1] as string],
      });
      expect(forgotten.deleted).toEqual([sessionIds[1]]);
      await expectNothingOfTheAttackers();
    });

    it("membership is what the administrator made it: mallory only in other, bob added, nobody else", async () => {
      const now = (await members()) as { role_name: string }[];
      expect(now.filter((m) => m.role_name === "mallory").length).toBe(1);
      expect(
        now
          .filter((m) => !(membersBefore as { role_name: string }[]).some((b) => b.role_name === m.role_name))
          .map((m) => m.role_name),
      ).toEqual(["bob"]);
    });

    it("a lock held by that member ends status and push at team.lockTimeoutMs, said as such; the outbox is kept", async () => {
      const holder = new pg.Client({ connectionString: server.url("mallory", "mallory-pw", "library") });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("LOCK TABLE ctx_team.sessions IN ACCESS EXCLUSIVE MODE");
        const status = await rejectedCtxError(teamStatus(aliceUrl(), { ...OPTIONS, lockTimeoutMs: 500 }, "web"));
        expect(status.message).toContain("gave up waiting for a lock after 500 ms (team.lockTimeoutMs)");
        const cli = await runCtx(["team", "status", "--json"], {
          cwd: repo,
          env: { ...env, CTX_TEAM__LOCK_TIMEOUT_MS: "500" },
          timeoutMs: 60_000,
        });
        expect(cli.code).toBe(1);
        expect(JSON.parse(cli.stdout)).toMatchObject({ reachable: false });
        expect(JSON.parse(cli.stdout).error).toContain("team.lockTimeoutMs");
        const queued = requeue();
        expect(queued).toBeGreaterThan(0);
        const push = await rejectedCtxError(pushPending(await pushOptions()));
        expect(push.message).toContain("(team.lockTimeoutMs)");
        expect(depth()).toBe(queued);
        // `ctx team push` (and so the background pusher) takes the person's setting, not the default.
        const cliPush = await runCtx(["team", "push", "--json"], {
          cwd: repo,
          env: { ...env, CTX_TEAM__LOCK_TIMEOUT_MS: "700" },
          timeoutMs: 60_000,
        });
        expect(cliPush.stdout + cliPush.stderr).toContain(
          "gave up waiting for a lock after 700 ms (team.lockTimeoutMs)",
        );
        expect(depth()).toBe(queued);
      } finally {
        await holder.end();
      }
      // Once the lock is gone, the kept outbox goes out.
      expect((await pushPending(await pushOptions())).sessions).toBeGreaterThan(0);
      expect(depth()).toBe(0);
    });

    it("a URL's sslpassword is never printed, put in --json, or stored, when the connection fails", async () => {
      const secret = "hunter2-ssl-passphrase";
      // The server has no TLS: sslmode=require fails at connect, as a bad certificate would.
      const url = `${server.url("alice", null, "library")}?sslmode=require&sslpassword=${secret}`;
      const home = join(base, "masking");
      const maskEnv = { CTX_HOME: join(home, ".ctx"), HOME: home, PGPASSWORD: "alice-pw" };
      mkdirSync(home, { recursive: true });
      const runs = [
        await runCtx(["team", "join", url, "--team", "web"], { cwd: repo, env: maskEnv }),
        await runCtx(["team", "join", url, "--team", "web", "--json"], { cwd: repo, env: maskEnv }),
        await runCtx(["team", "init", url, "--json"], { cwd: repo, env: maskEnv }),
      ];
      // Joined through the environment, with work queued: the push fails and its error is stored for status.
      const joinedEnv = { ...env, ...maskEnv, CTX_HOME: env.CTX_HOME, CTX_TEAM__URL: url };
      expect(requeue()).toBeGreaterThan(0);
      runs.push(await runCtx(["team", "push"], { cwd: repo, env: joinedEnv }));
      runs.push(await runCtx(["team", "push", "--json"], { cwd: repo, env: joinedEnv }));
      runs.push(await runCtx(["team", "status"], { cwd: repo, env: joinedEnv }));
      runs.push(await runCtx(["team", "status", "--json"], { cwd: repo, env: joinedEnv }));
      for (const run of runs) {
        expect(run.code).not.toBe(0);
        expect(`${run.stdout}${run.stderr}`).toContain("sslpassword=***");
        expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
      }
      expect(JSON.parse(runs.at(-1)?.stdout ?? "{}").sharing.lastError).toContain("sslpassword=***");
      for (const folder of [maskEnv.CTX_HOME, env.CTX_HOME as string]) {
        for (const file of listFiles(folder)) expect(readFileSync(file).includes(secret), file).toBe(false);
      }
    });
  },
);

function listFiles(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
