// Push never gets stuck (issue 31), against a real PostgreSQL (tests/helpers/pg-cluster.ts): a transcript holding NUL
// and lone surrogates (in a prompt and in its git branch) once made every later push fail for good; now it is pushed,
// cleaned, and found by the server's full-text search. A session the server refuses for its own data (here a chunk
// type the server's CHECK does not know, as a newer ctx could write) is set aside with its reason, the others of its
// batch land, `ctx team status` lists it, it is not tried again until it changes or `--retry-set-aside` asks.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE } from "../../tests/helpers/claude-projects.ts";
import { runCliCaptured } from "../../tests/helpers/cli-run.ts";
import { startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { createTeamCheckout } from "../../tests/helpers/team-checkout.ts";
import { databaseOf } from "../search/session-index/database.ts";
import { openSessionIndex, type SessionIndex } from "../search/session-index/session-index.ts";
import { enqueueSessionsUnder, outboxDepth } from "../search/session-index/team-outbox.ts";
import { syncIndex } from "../search/sync/sync-index.ts";
import { readSharedProjects, sharedRootsForIngest } from "../store/team/team-state.ts";
import { pushPending } from "./push.ts";
import { addMember, migrateTeam } from "./service.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const FILES = [FIXTURE.short, FIXTURE.toolHeavy, FIXTURE.subagent];
/** Words planted right after a NUL and a lone surrogate: the server's search must find them. */
const AFTER_NUL = "zorblaxine";
const AFTER_SURROGATE = "glimmerfennic";

describe.skipIf(cluster === null)(`push set aside${"skipReason" in started ? ` (${started.skipReason})` : ""}`, () => {
  const pg = cluster as NonNullable<typeof cluster>;
  let repo: string;
  let claudeDir: string;
  let env: NodeJS.ProcessEnv;
  let dbPath: string;
  const ids: string[] = [];
  let planted = "";
  const aliceUrl = () => pg.url("alice", "alice-pw", "library");
  const sql = async (text: string) => (await pg.sql(text, "library")).rows;
  const serverIds = async () => (await sql("SELECT id FROM ctx_team.sessions ORDER BY id")).map((r) => String(r.id));
  const cli = (argv: string[]) => runCliCaptured(["team", ...argv], { cwd: repo, env });
  const index = async () => syncIndex({ claudeDir, dbPath, teamShare: { roots: await sharedRootsForIngest(env) } });
  const withIndex = <T>(work: (index: SessionIndex) => T): T => {
    const local = openSessionIndex(dbPath);
    try {
      return work(local);
    } finally {
      local.close();
    }
  };
  const localChunks = (id: string) =>
    withIndex((index) =>
      Number(
        (databaseOf(index).prepare("SELECT count(*) AS n FROM chunks WHERE session_id = ?").get(id) as { n: number }).n,
      ),
    );
  const serverChunks = async (id: string) =>
    Number((await sql(`SELECT count(*) AS n FROM ctx_team.chunks WHERE session_id = '${id}'`))[0]?.n);

  beforeAll(async () => {
    await pg.createDatabase("library");
    // As on PostgreSQL 14 and older by default: every role may create in public (issue 31's test setting).
    await pg.sql("GRANT CREATE ON SCHEMA public TO PUBLIC", "library");
    await pg.createRole("alice", "alice-pw");
    await migrateTeam(pg.adminUrl("library"), { connectTimeoutMs: 5_000 });
    await addMember(pg.adminUrl("library"), { connectTimeoutMs: 5_000 }, { role: "alice", team: "web" });
    const base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-team-set-aside-")));
    const checkout = createTeamCheckout({
      base,
      name: "spotter",
      remote: "https://github.com/acme/spotter.git",
      files: FILES,
      transform: (text, { file, id }) => {
        if (file !== FIXTURE.short) return text;
        // JSON escapes, as Claude Code writes them: a NUL and a lone high surrogate in a prompt, a NUL in the branch.
        const changed = text
          .replace(
            '"content":"mix phx.server doesnt seem to start"',
            `"content":"mix phx.server doesnt seem to start\\u0000${AFTER_NUL} and \\ud800${AFTER_SURROGATE}"`,
          )
          .replaceAll('"gitBranch":"master"', '"gitBranch":"master\\u0000x"');
        expect(changed).toContain(`\\u0000${AFTER_NUL}`);
        planted = id;
        return changed;
      },
    });
    ({ repo, claudeDir } = checkout);
    ids.push(...checkout.ids);
    ids.sort();
    env = { CTX_HOME: join(base, "ctx-home"), HOME: base, CTX_TEAM__URL: aliceUrl(), CTX_TEAM__NAME: "web" };
    dbPath = join(base, "ctx-home", "index.db");
    await index();
  });

  it("a transcript with NUL and lone surrogates is pushed, with the rest, and found by the server's search", async () => {
    expect(JSON.parse((await cli(["share", "--json"])).stdout)).toMatchObject({ queued: ids.length });
    const pushed = JSON.parse((await cli(["push", "--json"])).stdout);
    expect(pushed).toMatchObject({ outcome: "pushed", summary: { sessions: ids.length, setAside: 0 } });
    expect(await serverIds()).toEqual(ids);
    for (const id of ids) expect(await serverChunks(id)).toBe(localChunks(id));
    expect(withIndex(outboxDepth).items).toBe(0);
    // Found through the server's full-text index (what team search asks), NUL and surrogate replaced by U+FFFD.
    for (const word of [AFTER_NUL, AFTER_SURROGATE]) {
      const found = await sql(
        `SELECT DISTINCT session_id FROM ctx_team.chunks WHERE search @@ plainto_tsquery('english', '${word}')`,
      );
      expect(found.map((r) => r.session_id)).toEqual([planted]);
    }
    const texts = await sql(`SELECT text FROM ctx_team.chunks WHERE text LIKE '%${AFTER_NUL}%'`);
    expect(texts.length).toBeGreaterThan(0);
    for (const { text } of texts) expect(text).toContain(`\ufffd${AFTER_NUL} and \ufffd${AFTER_SURROGATE}`);
    const [session] = await sql(`SELECT branch FROM ctx_team.sessions WHERE id = '${planted}'`);
    expect(session?.branch).toBe("master\ufffdx");
    const status = JSON.parse((await cli(["status", "--json"])).stdout);
    expect(status.sharing).toMatchObject({ lastError: null, setAside: [] });
  });

  it("a session the server refuses for its own data is set aside with its reason; its batch's others land", async () => {
    const [bad, ...good] = ids as [string, ...string[]];
    await sql("DELETE FROM ctx_team.sessions");
    // A chunk type the server's CHECK does not know: the server refuses this one session's rows (SQLSTATE 23514).
    withIndex((index) =>
      databaseOf(index).prepare("UPDATE chunks SET memory_type = 'NEWER_TYPE' WHERE session_id = ?").run(bad),
    );
    withIndex((index) => enqueueSessionsUnder(index, [repo]));
    // All three in one batch: the batch is refused, then written in halves down to the one session.
    const summary = await pushPending({
      url: aliceUrl(),
      team: "web",
      connectTimeoutMs: 5_000,
      env,
      dbPath,
      shared: await readSharedProjects(env),
      maxTranscriptMegabytes: 20,
    });
    expect(summary).toMatchObject({ sessions: good.length, setAside: 1 });
    expect(await serverIds()).toEqual(good);
    for (const id of good) expect(await serverChunks(id)).toBe(localChunks(id));
    // Set aside: not pending (the background pusher ends), listed with its reason by status, in JSON and text.
    expect(withIndex(outboxDepth)).toMatchObject({ sessions: 0, items: 0 });
    const status = JSON.parse((await cli(["status", "--json"])).stdout);
    expect(status.sharing.setAside).toEqual([{ sessionId: bad, reason: expect.any(String), at: expect.any(Number) }]);
    const reason = status.sharing.setAside[0].reason as string;
    expect(reason).toMatch(/^the server refused it: .*check constraint.*\(SQLSTATE 23514\)$/);
    expect(reason).not.toContain("\n");
    expect(reason).not.toContain("alice-pw");
    const text = (await cli(["status"])).stdout;
    expect(text).toContain(`set aside    ${bad}: ${reason}\n`);
    expect(text).toContain("--retry-set-aside");
    // Not tried again by a plain push.
    expect(JSON.parse((await cli(["push", "--json"])).stdout)).toMatchObject({
      outcome: "pushed",
      summary: { sessions: 0, setAside: 0 },
    });
    // Still refused when retried: set aside again, nothing else disturbed.
    const retried = JSON.parse((await cli(["push", "--retry-set-aside", "--json"])).stdout);
    expect(retried).toMatchObject({ outcome: "pushed", summary: { sessions: 0, setAside: 1 } });
    expect(await serverIds()).toEqual(good);
    // In text, the push says so on stderr and succeeds: the rest went on.
    const said = await cli(["push", "--retry-set-aside"]);
    expect(said.code).toBe(0);
    expect(said.stderr).toBe(
      "1 session set aside: the server refused it (`ctx team status` says why); the rest went on\n",
    );
    // `ctx index --full` (what docs/team.md says to run after an upgrade that fixes the cause) rebuilds its chunks
    // and queues it again: it is tried by the next push, goes up, and status lists nothing.
    await syncIndex({ claudeDir, dbPath, full: true, teamShare: { roots: await sharedRootsForIngest(env) } });
    expect(JSON.parse((await cli(["push", "--json"])).stdout)).toMatchObject({
      outcome: "pushed",
      summary: { sessions: ids.length, setAside: 0 },
    });
    expect(await serverIds()).toEqual(ids);
    expect(await serverChunks(bad)).toBe(localChunks(bad));
    expect(JSON.parse((await cli(["status", "--json"])).stdout).sharing.setAside).toEqual([]);
  });

  it("a server that refuses everything (not an item's fault) fails the push and sets nothing aside", async () => {
    // Permission denied (SQLSTATE 42501) holds for every session: the push fails and the outbox keeps them all.
    await sql("REVOKE INSERT ON ctx_team.sessions FROM alice");
    try {
      withIndex((index) => enqueueSessionsUnder(index, [repo]));
      const failed = JSON.parse((await cli(["push", "--json"])).stdout);
      expect(failed).toMatchObject({ outcome: "failed" });
      expect(withIndex(outboxDepth).sessions).toBe(ids.length);
      expect(JSON.parse((await cli(["status", "--json"])).stdout).sharing.setAside).toEqual([]);
    } finally {
      await sql("GRANT INSERT ON ctx_team.sessions TO alice");
    }
    expect(JSON.parse((await cli(["push", "--json"])).stdout)).toMatchObject({ outcome: "pushed" });
    expect(withIndex(outboxDepth).items).toBe(0);
  });
});
