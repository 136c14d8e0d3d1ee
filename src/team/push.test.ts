// Push against a real PostgreSQL (tests/helpers/pg-cluster.ts), through the code the CLI runs: real transcripts
// (tests/fixtures/claude) in a Claude Code folder whose sessions ran in a git checkout with a remote; a project
// not shared pushes nothing; share → index → push puts every row on the server exactly once; a re-push, a push whose
// connection is cut between batches and one that dies after a COMMIT (before acknowledging it) end with the same rows;
// a stopped server keeps the outbox until it is back; planted secrets never reach the server (pg_dump and the stored
// transcripts searched); an oversized transcript makes the session not forkable; unshare and forget.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCtx } from "../../tests/e2e/ctx-process.ts";
import { buildSecretCases } from "../../tests/fixtures/redaction/fake-secrets.ts";
import { FIXTURE } from "../../tests/helpers/claude-projects.ts";
import { runCliCaptured } from "../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { findPostgresBin, PG_SUPERUSER_PASSWORD, startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { copySessionsInto, createGitCheckout, SPOTTER_CWD } from "../../tests/helpers/team-checkout.ts";
import { databaseOf } from "../search/session-index/database.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import { enqueueSessionsUnder, outboxDepth } from "../search/session-index/team-outbox.ts";
import { syncIndex } from "../search/sync/sync-index.ts";
import { decompressTranscript } from "../store/files/codecs.ts";
import { withLock } from "../store/files/lock.ts";
import { readSharedProjects, sharedRootsForIngest } from "../store/team/team-state.ts";
import { type PushOptions, pushPending } from "./push.ts";
import { drainOutbox, pusherLockTarget } from "./pusher.ts";
import { addMember, migrateTeam } from "./service.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const VIEWER_CWD = "/path/to/Demo";
/** Sessions that ran in the shared checkout (spotter) and in another, never-shared project (viewer). */
const SHARED_FILES = [FIXTURE.short, FIXTURE.toolHeavy, FIXTURE.subagent];
const OTHER_FILES = [
  FIXTURE.viewer("1af7fc5e-8455-4414-9ccd-011d40f70b2a"),
  FIXTURE.viewer("5c0375b4-57a5-4f26-b12d-d022ee4e51b7"),
];

describe.skipIf(cluster === null)(`team push${"skipReason" in started ? ` (${started.skipReason})` : ""}`, () => {
  const pg = cluster as NonNullable<typeof cluster>;
  const secrets = buildSecretCases()
    .filter((c) => c.embed.as === "bare")
    .slice(0, 4)
    .map((c) => (c.embed as { snippet: string }).snippet);
  let base: string;
  let repo: string;
  let other: string;
  let claudeDir: string;
  let env: NodeJS.ProcessEnv;
  let dbPath: string;
  const sharedIds: string[] = [];
  const otherIds: string[] = [];
  const aliceUrl = () => pg.url("alice", "alice-pw", "library");
  const sql = async (text: string) => (await pg.sql(text, "library")).rows;
  const count = async (table: string) => Number((await sql(`SELECT count(*) AS n FROM ctx_team.${table}`))[0]?.n);

  const pushOptions = async (overrides: Partial<PushOptions> = {}): Promise<PushOptions> => ({
    url: aliceUrl(),
    team: "web",
    connectTimeoutMs: 2_000,
    env,
    dbPath,
    shared: await readSharedProjects(env),
    maxTranscriptMegabytes: 20,
    ...overrides,
  });
  let sharedNow: Awaited<ReturnType<typeof readSharedProjects>> = [];
  const pushOptionsNow = (): PushOptions => ({
    url: aliceUrl(),
    team: "web",
    connectTimeoutMs: 2_000,
    env,
    dbPath,
    shared: sharedNow,
    maxTranscriptMegabytes: 20,
  });
  const index = async () => syncIndex({ claudeDir, dbPath, teamShare: { roots: await sharedRootsForIngest(env) } });
  const cli = (argv: string[]) => runCliCaptured(["team", ...argv], { cwd: repo, env });
  /** The local index's chunks of the shared sessions: what the server must hold, once each. */
  const localChunks = () => {
    const local = openSessionIndex(dbPath, { readonly: true });
    try {
      return Number(
        (
          databaseOf(local)
            .prepare(`SELECT count(*) AS n FROM chunks WHERE session_id IN (${sharedIds.map(() => "?").join(",")})`)
            .get(...sharedIds) as { n: number }
        ).n,
      );
    } finally {
      local.close();
    }
  };
  const depth = () => {
    const local = openSessionIndex(dbPath);
    try {
      return outboxDepth(local);
    } finally {
      local.close();
    }
  };
  const requeueAll = () => {
    const local = openSessionIndex(dbPath);
    try {
      enqueueSessionsUnder(local, [repo]);
    } finally {
      local.close();
    }
  };
  const expectServerHoldsEverythingOnce = async () => {
    expect(await count("sessions")).toBe(sharedIds.length);
    expect((await sql("SELECT id FROM ctx_team.sessions ORDER BY id")).map((r) => r.id)).toEqual([...sharedIds].sort());
    expect(await count("chunks")).toBe(localChunks());
    expect(await count("transcripts")).toBe(sharedIds.length);
  };

  beforeAll(async () => {
    await pg.createDatabase("library");
    await pg.createRole("alice", "alice-pw");
    await pg.createRole("bob", "bob-pw");
    await migrateTeam(pg.adminUrl("library"), { connectTimeoutMs: 5_000 });
    await addMember(pg.adminUrl("library"), { connectTimeoutMs: 5_000 }, { role: "alice", team: "web" });
    await addMember(pg.adminUrl("library"), { connectTimeoutMs: 5_000 }, { role: "bob", team: "web" });
    base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-team-push-")));
    repo = createGitCheckout(base, "spotter", "https://alice:tok@GitHub.com/acme/spotter.git");
    other = join(base, "demo");
    mkdirSync(other, { recursive: true });
    claudeDir = join(base, "claude");
    const folder = join(claudeDir, "projects", "-spotter");
    // Real transcripts, moved to this machine's checkout (their cwd), one with secrets planted in a prompt.
    sharedIds.push(
      ...copySessionsInto(folder, SHARED_FILES, {
        from: SPOTTER_CWD,
        to: repo,
        transform: (text, { file }) => {
          if (file !== FIXTURE.short) return text;
          const planted = text.replace(
            '"content":"mix phx.server doesnt seem to start"',
            `"content":"mix phx.server doesnt seem to start; the keys are ${secrets.join(" and ")}"`,
          );
          expect(planted).toContain(secrets[0]);
          return planted;
        },
      }),
    );
    otherIds.push(...copySessionsInto(folder, OTHER_FILES, { from: VIEWER_CWD, to: other }));
    env = { CTX_HOME: join(base, "ctx-home"), HOME: base, CTX_TEAM__URL: aliceUrl(), CTX_TEAM__NAME: "web" };
    dbPath = join(base, "ctx-home", "index.db");
  });

  it("a project not shared pushes nothing (checked on the server)", async () => {
    await index();
    expect(depth().items).toBe(0);
    const summary = await pushPending(await pushOptions());
    expect(summary.sessions).toBe(0);
    expect(await count("sessions")).toBe(0);
    expect(await count("projects")).toBe(0);
  });

  it("share refuses a folder that is not a git checkout with a remote, and records nothing", async () => {
    const error = await rejectedCtxError(runCliCaptured(["team", "share"], { cwd: other, env }));
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain("is not inside a git repository");
    expect(await readSharedProjects(env)).toEqual([]);
  });

  it("share adds the project (normalised remote) and queues what was indexed; push sends it exactly once", async () => {
    const shared = await cli(["share", "--json"]);
    const result = JSON.parse(shared.stdout);
    expect(result).toMatchObject({
      project: { remoteUrl: "github.com/acme/spotter", repoPath: "" },
      root: repo,
      added: true,
      queued: sharedIds.length,
      serverError: null,
    });
    expect(await sql("SELECT remote_url, repo_path, added_by FROM ctx_team.projects")).toEqual([
      { remote_url: "github.com/acme/spotter", repo_path: "", added_by: "alice" },
    ]);
    // Nothing in the repository records the decision.
    expect(spawnSync("git", ["-C", repo, "status", "--porcelain"], { encoding: "utf8" }).stdout).toBe("");
    sharedNow = await readSharedProjects(env);
    const pushed = JSON.parse((await cli(["push", "--json"])).stdout);
    expect(pushed).toMatchObject({ outcome: "pushed", summary: { sessions: sharedIds.length, transcripts: 3 } });
    await expectServerHoldsEverythingOnce();
    expect(depth().items).toBe(0);
    const status = JSON.parse((await cli(["status", "--json"])).stdout);
    expect(status.sharing).toMatchObject({
      projects: [{ remoteUrl: "github.com/acme/spotter", repoPath: "", roots: [repo] }],
      outbox: { sessions: 0, items: 0, oldestAt: null },
      lastError: null,
    });
    expect(status.sharing.lastPushAt).toEqual(expect.any(Number));
    expect(status.counts).toMatchObject({ sessions: 3, mySessions: 3 });
  });

  it("a session's rows carry its metadata; the transcript is the redacted one, compressed", async () => {
    const rows = await sql(
      "SELECT id, author, title, message_count, forkable, lineage FROM ctx_team.sessions ORDER BY id",
    );
    for (const row of rows) {
      expect(row).toMatchObject({ author: "alice", forkable: true });
      expect(row.message_count).toBeGreaterThan(0);
      expect(row.lineage).toHaveProperty("chainQuality");
    }
    const subagentChunks = await sql("SELECT count(*) AS n FROM ctx_team.chunks WHERE source <> ''");
    expect(Number(subagentChunks[0]?.n)).toBeGreaterThanOrEqual(0);
    const transcripts = await sql("SELECT session_id, codec, raw_bytes, data FROM ctx_team.transcripts");
    for (const t of transcripts) {
      const raw = Buffer.from(decompressTranscript(t.codec, t.data, Number(t.raw_bytes)));
      expect(raw.byteLength).toBe(Number(t.raw_bytes));
      const text = raw.toString("utf8");
      // The planted prompt arrives with markers where its secrets were.
      if (t.session_id === sharedIds[0]) expect(text.includes("[REDACTED:")).toBe(true);
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    }
  });

  it("secrets planted in a transcript never reach the server (pg_dump searched)", () => {
    const bin = findPostgresBin();
    const dump = spawnSync(
      join(bin as string, "pg_dump"),
      ["--data-only", "--schema=ctx_team", `--dbname=${pg.adminUrl("library")}`],
      { encoding: "utf8", env: { PATH: process.env.PATH, PGPASSWORD: PG_SUPERUSER_PASSWORD } },
    );
    expect(dump.status).toBe(0);
    expect(dump.stdout).toContain("ctx_team.chunks");
    expect(dump.stdout.includes("[REDACTED:")).toBe(true);
    for (const secret of secrets) expect(dump.stdout.includes(secret)).toBe(false);
  });

  it("a re-push changes nothing: no duplicate, no loss, and unchanged chunks are not rewritten", async () => {
    const rows = "SELECT session_id, source, chunk_index, md5(text) AS h FROM ctx_team.chunks ORDER BY 1, 2, 3";
    // xmin: the transaction that last wrote the row (an UPDATE, even to the same values, writes a new version).
    const versions = "SELECT session_id, source, chunk_index, xmin::text AS x FROM ctx_team.chunks ORDER BY 1, 2, 3";
    const before = await sql(rows);
    // One chunk the server holds differs from the local one: the re-push must put the local text back.
    await sql(
      "UPDATE ctx_team.chunks SET text = 'stale' WHERE (session_id, source, chunk_index) = " +
        "(SELECT session_id, source, chunk_index FROM ctx_team.chunks ORDER BY 1, 2, 3 LIMIT 1)",
    );
    const written = await sql(versions);
    requeueAll();
    const summary = await pushPending(await pushOptions());
    expect(summary.sessions).toBe(sharedIds.length);
    await expectServerHoldsEverythingOnce();
    expect(await sql(rows)).toEqual(before);
    const after = await sql(versions);
    expect(after.slice(1)).toEqual(written.slice(1));
    expect(after[0]?.x).not.toBe(written[0]?.x);
  });

  it("a teammate's session in this index (a fork fetched it) is left to its author, and the rest still goes up", async () => {
    // Bob's machine holds alice's sessions (as `ctx fork` writes them into his Claude folder) in a project he
    // shares: row-level security refuses his upsert of her rows, which must not stop his push for ever.
    const rows = "SELECT id, author, pushed_at::text AS at FROM ctx_team.sessions ORDER BY id";
    const before = await sql(rows);
    requeueAll();
    const summary = await pushPending(await pushOptions({ url: pg.url("bob", "bob-pw", "library") }));
    expect(summary).toMatchObject({ sessions: 0, othersSessions: sharedIds.length });
    expect(depth().items).toBe(0);
    expect(await sql(rows)).toEqual(before);
    await expectServerHoldsEverythingOnce();
  });

  it("a connection cut between batches, and a pusher dying after a COMMIT, lose and duplicate nothing", async () => {
    await sql("DELETE FROM ctx_team.sessions");
    requeueAll();
    // Cut alice's connection right after the first batch committed (before it is acknowledged locally).
    const cut = pushOptions({
      batchSessions: 1,
      afterCommit: async (batch) => {
        if (batch === 1) await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'alice'");
      },
    });
    await expect(pushPending(await cut)).rejects.toThrow();
    expect(await count("sessions")).toBe(1);
    expect(depth().sessions).toBe(sharedIds.length - 1);
    // The next pusher dies after its second COMMIT.
    const dies = pushOptions({
      batchSessions: 1,
      afterCommit: (batch) => {
        if (batch === 2) throw new Error("killed");
      },
    });
    await expect(pushPending(await dies)).rejects.toThrow("killed");
    // Its second batch is on the server but still queued here: pushed again below, and still there once.
    expect(await count("sessions")).toBe(3);
    expect(depth().sessions).toBe(1);
    await pushPending(await pushOptions());
    expect(depth().items).toBe(0);
    await expectServerHoldsEverythingOnce();
  });

  it("one pusher at a time: a second one leaves at once while the first holds the lock", async () => {
    requeueAll();
    const result = await withLock(pusherLockTarget(env), () => drainOutbox(pushOptionsNow(), { waitMs: 0 }));
    expect(result).toEqual({ outcome: "busy" });
    expect(depth().sessions).toBe(sharedIds.length);
    expect(await drainOutbox(pushOptionsNow(), { waitMs: 0 })).toMatchObject({ outcome: "pushed" });
    expect(depth().items).toBe(0);
    await expectServerHoldsEverythingOnce();
  });

  it("the server stopped: push fails within the connect limit and the outbox waits; started again, it drains", async () => {
    await sql("DELETE FROM ctx_team.sessions");
    requeueAll();
    await pg.stopServer();
    try {
      const failed = await cli(["push", "--json"]);
      expect(JSON.parse(failed.stdout)).toMatchObject({ outcome: "failed" });
      expect(depth().sessions).toBe(sharedIds.length);
      const status = JSON.parse((await cli(["status", "--json"])).stdout);
      expect(status).toMatchObject({ reachable: false, sharing: { outbox: { sessions: sharedIds.length } } });
      expect(status.sharing.lastError).toContain("cannot connect to the team server");
      expect(status.sharing.lastError).not.toContain("alice-pw");
    } finally {
      await pg.startServer();
    }
    const drained = JSON.parse((await cli(["push", "--json"])).stdout);
    expect(drained).toMatchObject({ outcome: "pushed", summary: { sessions: sharedIds.length } });
    await expectServerHoldsEverythingOnce();
  });

  it("a transcript over team.maxTranscriptMegabytes: its chunks go up, the session is not forkable", async () => {
    requeueAll();
    const summary = await pushPending(await pushOptions({ maxTranscriptMegabytes: 0.02 }));
    expect(summary.notForkable).toBeGreaterThan(0);
    const rows = await sql(
      "SELECT s.id, s.forkable, (SELECT count(*) FROM ctx_team.transcripts t WHERE t.session_id = s.id) AS t FROM ctx_team.sessions s",
    );
    expect(rows.filter((r) => !r.forkable).length).toBe(summary.notForkable);
    for (const row of rows) expect(Number(row.t)).toBe(row.forkable ? 1 : 0);
    expect(await count("chunks")).toBe(localChunks());
    requeueAll();
    await pushPending(await pushOptions());
    await expectServerHoldsEverythingOnce();
  });

  it("`ctx index` in a real process queues what it ingests and starts a background pusher that drains the outbox", async () => {
    const file = join(claudeDir, "projects", "-spotter", `${sharedIds[0]}.jsonl`);
    const before = Number(
      (await sql(`SELECT message_count AS n FROM ctx_team.sessions WHERE id = '${sharedIds[0]}'`))[0]?.n,
    );
    const text = readFileSync(file, "utf8");
    const prompt = JSON.parse(text.split("\n")[3] as string);
    prompt.uuid = "0b9c1f4e-1111-4a7e-9a57-2f1b3c4d5e6f";
    prompt.message.content = "and now the tests fail with a timeout";
    writeFileSync(file, `${text}${JSON.stringify(prompt)}\n`);
    const run = await runCtx(["index", "--quiet"], {
      cwd: repo,
      env: { ...env, CLAUDE_CONFIG_DIR: claudeDir, CTX_TEAM__URL: aliceUrl(), CTX_TEAM__NAME: "web" },
    });
    expect(run.code).toBe(0);
    // The pusher is detached: wait for what it sends (bounded), then for it to let go of its lock.
    let after = before;
    for (let i = 0; i < 300 && after <= before; i += 1) {
      await sleep(100);
      after = Number(
        (await sql(`SELECT message_count AS n FROM ctx_team.sessions WHERE id = '${sharedIds[0]}'`))[0]?.n,
      );
    }
    expect(after).toBe(before + 1);
    for (let i = 0; i < 300 && existsSync(join(env.CTX_HOME as string, "team", "pusher.lock")); i += 1)
      await sleep(100);
    expect(existsSync(join(env.CTX_HOME as string, "team", "pusher.lock"))).toBe(false);
    expect(depth().items).toBe(0);
    await expectServerHoldsEverythingOnce();
  });

  it("forget deletes only the member's own sessions: one by id, then --mine --project", async () => {
    const bob = await rejectedCtxError(
      runCliCaptured(["team", "forget", sharedIds[0] as string], {
        cwd: repo,
        env: { ...env, CTX_TEAM__URL: pg.url("bob", "bob-pw", "library") },
      }),
    );
    expect(bob.code).toBe("NOT_FOUND");
    expect(await count("sessions")).toBe(sharedIds.length);
    const one = JSON.parse((await cli(["forget", sharedIds[0] as string, "--json"])).stdout);
    expect(one).toEqual({ deleted: [sharedIds[0]] });
    expect(
      Number((await sql(`SELECT count(*) AS n FROM ctx_team.chunks WHERE session_id = '${sharedIds[0]}'`))[0]?.n),
    ).toBe(0);
    const rest = JSON.parse((await cli(["forget", "--mine", "--project", "--json"])).stdout);
    expect(rest.deleted).toHaveLength(sharedIds.length - 1);
    expect(await count("sessions")).toBe(0);
    expect(await count("chunks")).toBe(0);
    expect(await count("transcripts")).toBe(0);
  });

  it("unshare drops what was queued and stops queueing: nothing more reaches the server", async () => {
    requeueAll();
    const result = JSON.parse((await cli(["unshare", "--json"])).stdout);
    expect(result).toMatchObject({ root: repo, dropped: sharedIds.length });
    expect(depth().items).toBe(0);
    // New activity in the project after unsharing is not queued.
    const file = join(claudeDir, "projects", "-spotter", `${sharedIds[0]}.jsonl`);
    const text = readFileSync(file, "utf8");
    writeFileSync(file, `${text}${text.split("\n")[3]}\n`);
    await index();
    expect(depth().items).toBe(0);
    await pushPending(await pushOptions());
    expect(await count("sessions")).toBe(0);
    expect(otherIds.length).toBe(2);
  });
});
