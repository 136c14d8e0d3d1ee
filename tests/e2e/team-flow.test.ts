// The team flow end to end, as two members use it: the BUILT binary (dist/ctx.js) against a real PostgreSQL, alice
// and bob each with their own HOME and CTX_HOME and their own clone (different folders, ssh and https remotes) of
// the same repository. Alice joins, shares her clone, `ctx index` takes in her Claude Code transcripts (real
// fixtures, moved to her clone, one with secrets planted in a prompt) and `ctx team push` sends them; the secrets
// reach neither the server (pg_dump searched) nor bob's machine. Bob finds her session with `ctx search --team`
// (author alice, not local), forks it into his Claude Code folder with his cwd, pushes his own shared clone (which
// now holds her session's file too), and after `ctx team forget --mine` by alice no longer finds her sessions.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeProjectDirName } from "../../src/config/claude-paths.ts";
import { ForkDetectReportSchema } from "../../src/search/fork-report-schema.ts";
import { addMember, migrateTeam } from "../../src/team/service.ts";
import { buildSecretCases } from "../fixtures/redaction/fake-secrets.ts";
import { FIXTURE } from "../helpers/claude-projects.ts";
import { findPostgresBin, PG_SUPERUSER_PASSWORD, startPgCluster } from "../helpers/pg-cluster.ts";
import { CTX_BIN, runProcess } from "./ctx-process.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const FIXTURE_CWD = "/home/marco/projects/spotter";
/** Alice's sessions: "mix phx.server doesnt seem to start" (secrets planted here) and the phoenix background one. */
const ALICE_FILES = [FIXTURE.short, FIXTURE.toolHeavy];
const BOB_FILES = [FIXTURE.subagent];
const QUERY = ["start", "the", "phoenix", "server", "in", "the", "background"];

interface Member {
  role: string;
  home: string;
  clone: string;
  env: NodeJS.ProcessEnv;
  ids: string[];
}

describe.skipIf(cluster === null)(`the team flow${"skipReason" in started ? ` (${started.skipReason})` : ""}`, () => {
  const pg = cluster as NonNullable<typeof cluster>;
  const secrets = buildSecretCases()
    .filter((c) => c.embed.as === "bare")
    .slice(0, 3)
    .map((c) => (c.embed as { snippet: string }).snippet);
  let alice: Member;
  let bob: Member;
  const sql = async (text: string) => (await pg.sql(text, "library")).rows;
  const serverSessions = async () =>
    (await sql("SELECT id, author FROM ctx_team.sessions ORDER BY id")) as { id: string; author: string }[];
  const ctx = (member: Member, args: string[], timeoutMs = 60_000) =>
    runProcess(process.execPath, [CTX_BIN, ...args], { cwd: member.clone, env: member.env, timeoutMs });
  /** The detached background pusher `ctx index` starts: wait until it lets go of its lock. */
  const pusherDone = async (member: Member) => {
    const lock = join(member.env.CTX_HOME as string, "team", "pusher.lock");
    for (let i = 0; i < 600 && existsSync(lock); i += 1) await sleep(100);
    expect(existsSync(lock)).toBe(false);
  };
  const searchTeam = async (member: Member, scope: string[] = ["--team"]) => {
    const run = await ctx(member, ["search", ...QUERY, ...scope, "--json"]);
    // Exit 1: nothing matched (the report still comes on stdout).
    expect([0, 1], run.stderr).toContain(run.code);
    return { report: ForkDetectReportSchema.parse(JSON.parse(run.stdout)), stderr: run.stderr };
  };

  const makeMember = (base: string, role: string, remote: string, files: string[], plant: boolean): Member => {
    const home = join(base, role);
    const clone = join(home, role === "alice" ? "src" : "work/checkouts", "app");
    mkdirSync(clone, { recursive: true });
    execFileSync("git", ["init", "-q", clone]);
    execFileSync("git", ["-C", clone, "remote", "add", "origin", remote]);
    const folder = join(home, ".claude", "projects", claudeProjectDirName(clone));
    mkdirSync(folder, { recursive: true });
    const ids: string[] = [];
    for (const file of files) {
      let text = readFileSync(file, "utf8").replaceAll(`"cwd":"${FIXTURE_CWD}`, `"cwd":"${clone}`);
      const id = /"sessionId":"([^"]+)"/.exec(text)?.[1] as string;
      if (plant && file === FIXTURE.short) {
        text = text.replace(
          '"content":"mix phx.server doesnt seem to start"',
          `"content":"mix phx.server doesnt seem to start; the keys are ${secrets.join(" and ")}"`,
        );
        expect(text).toContain(secrets[0]);
      }
      writeFileSync(join(folder, `${id}.jsonl`), text);
      ids.push(id);
    }
    // Only what the test gives: no PG*, CTX_* or CLAUDE_* variable of the machine running the tests leaks in.
    const env = {
      PATH: process.env.PATH,
      TMPDIR: process.env.TMPDIR,
      HOME: home,
      CTX_HOME: join(home, ".ctx"),
      CTX_LOG_LEVEL: "warn",
      PGPASSWORD: `${role}-pw`,
    };
    return { role, home, clone, env, ids };
  };

  beforeAll(async () => {
    await pg.createDatabase("library");
    await pg.createRole("alice", "alice-pw");
    await pg.createRole("bob", "bob-pw");
    const options = { connectTimeoutMs: 5_000 };
    await migrateTeam(pg.adminUrl("library"), options);
    await addMember(pg.adminUrl("library"), options, { role: "alice", team: "web" });
    await addMember(pg.adminUrl("library"), options, { role: "bob", team: "web" });
    const base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-team-flow-")));
    alice = makeMember(base, "alice", "https://github.com/acme/app.git", ALICE_FILES, true);
    bob = makeMember(base, "bob", "git@github.com:acme/app.git", BOB_FILES, false);
  });

  it("alice joins, shares her clone, indexes and pushes: her sessions are on the server once, as hers", async () => {
    const join_ = await ctx(alice, ["team", "join", pg.url("alice", null, "library"), "--team", "web"]);
    expect(join_.code, join_.stderr).toBe(0);
    const share = await ctx(alice, ["team", "share", "--json"]);
    expect(share.code, share.stderr).toBe(0);
    expect(JSON.parse(share.stdout)).toMatchObject({
      project: { remoteUrl: "github.com/acme/app", repoPath: "" },
      root: alice.clone,
    });
    const index = await ctx(alice, ["index", "--quiet"]);
    expect(index.code, index.stderr).toBe(0);
    const push = await ctx(alice, ["team", "push", "--json"]);
    expect(push.code, push.stderr).toBe(0);
    expect(JSON.parse(push.stdout).outcome).toMatch(/^(pushed|empty)$/);
    await pusherDone(alice);
    expect(await serverSessions()).toEqual(alice.ids.map((id) => ({ id, author: "alice" })).sort(byId));
    const transcripts = await sql("SELECT count(*) AS n FROM ctx_team.transcripts");
    expect(Number(transcripts[0]?.n)).toBe(alice.ids.length);
  });

  it("the planted secrets never reach the server (pg_dump searched)", () => {
    const dump = spawnSync(
      join(findPostgresBin() as string, "pg_dump"),
      ["--data-only", "--schema=ctx_team", `--dbname=${pg.adminUrl("library")}`],
      { encoding: "utf8", env: { PATH: process.env.PATH, PGPASSWORD: PG_SUPERUSER_PASSWORD } },
    );
    expect(dump.status, dump.stderr).toBe(0);
    expect(dump.stdout).toContain("phx.server");
    expect(dump.stdout).toContain("[REDACTED:");
    for (const secret of secrets) expect(dump.stdout.includes(secret)).toBe(false);
  });

  it("bob joins and shares his own clone; his team search finds alice's session, by alice, not local", async () => {
    const join_ = await ctx(bob, ["team", "join", pg.url("bob", null, "library"), "--team", "web"]);
    expect(join_.code, join_.stderr).toBe(0);
    const share = await ctx(bob, ["team", "share", "--json"]);
    expect(share.code, share.stderr).toBe(0);
    expect(JSON.parse(share.stdout)).toMatchObject({ project: { remoteUrl: "github.com/acme/app" }, root: bob.clone });
    const { report, stderr } = await searchTeam(bob);
    expect(stderr).toBe("");
    expect(report.notices).toEqual([]);
    const phoenix = report.results.find((r) => r.sessionId === alice.ids[1]);
    expect(phoenix?.team).toMatchObject({ author: "alice", project: "github.com/acme/app", local: false });
    expect(phoenix?.forkCommand).toBe(`ctx fork ${alice.ids[1]}`);
    await pusherDone(bob);
    for (const secret of secrets) expect(JSON.stringify(report).includes(secret)).toBe(false);
  });

  it("bob forks alice's session: the transcript lands in his Claude folder with his cwd, redacted", async () => {
    const id = alice.ids[0] as string;
    const fork = await ctx(bob, ["fork", id, "--print"]);
    expect(fork.code, fork.stderr).toBe(0);
    expect(fork.stdout).toBe(`cd ${bob.clone} && claude --resume ${id} --fork-session\n`);
    expect(fork.stderr).toContain("REDACTED");
    const file = join(bob.home, ".claude", "projects", claudeProjectDirName(bob.clone), `${id}.jsonl`);
    const text = readFileSync(file, "utf8");
    const cwds = text
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => (JSON.parse(line) as { cwd?: string }).cwd)
      .filter((cwd) => cwd !== undefined);
    expect(cwds.length).toBeGreaterThan(0);
    expect(new Set(cwds)).toEqual(new Set([bob.clone]));
    expect(text).toContain("[REDACTED:");
    // Nowhere on bob's machine: no file under his HOME (his Claude folder, his ctx index and state) holds a secret.
    for (const path of filesUnder(bob.home)) {
      const bytes = readFileSync(path);
      for (const secret of secrets) expect(bytes.includes(secret), path).toBe(false);
    }
  });

  // After the fork, alice's session id sits in bob's Claude folder under his shared clone, so bob's `ctx index` queues
  // it; his push must leave it to her (row-level security refuses his upsert of her row) and still send his own.
  // Before the fix the batch rolled back on it and every later push failed the same way.
  it("bob's index and push after the fork are not stuck on alice's session id", async () => {
    const index = await ctx(bob, ["index", "--quiet"]);
    expect(index.code, index.stderr).toBe(0);
    await pusherDone(bob);
    const push = await ctx(bob, ["team", "push", "--json"]);
    expect(push.code, push.stderr).toBe(0);
    expect(JSON.parse(push.stdout).outcome, push.stdout).toMatch(/^(pushed|empty)$/);
    const status = JSON.parse((await ctx(bob, ["team", "status", "--json"])).stdout);
    expect(status.sharing.outbox.items).toBe(0);
    expect(status.sharing.lastError).toBeNull();
    expect(await serverSessions()).toEqual(
      [...alice.ids.map((id) => ({ id, author: "alice" })), ...bob.ids.map((id) => ({ id, author: "bob" }))].sort(byId),
    );
  });

  it("alice forgets her sessions: bob's team search no longer finds them", async () => {
    const forget = await ctx(alice, ["team", "forget", "--mine", "--json"]);
    expect(forget.code, forget.stderr).toBe(0);
    expect([...JSON.parse(forget.stdout).deleted].sort()).toEqual([...alice.ids].sort());
    expect((await serverSessions()).filter((s) => s.author === "alice")).toEqual([]);
    const { report } = await searchTeam(bob, ["--scope", "team", "--no-refresh"]);
    expect(report.results.filter((r) => r.team?.author === "alice")).toEqual([]);
    expect(report.results.map((r) => r.sessionId)).not.toContain(alice.ids[1]);
  });
});

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
