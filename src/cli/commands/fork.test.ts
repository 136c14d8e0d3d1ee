// `ctx fork` through the CLI: a local session's command, and a teammate's session fetched from a real PostgreSQL
// (tests/helpers/pg-cluster.ts; the session inserted as the teammate's own role) into a second member's checkout
// of the same remote in another folder: the transcript lands in Claude Code's project folder for that checkout with
// its cwd fields moved, the command is printed; damage, a session that is not forkable, a missing checkout and a
// hostile id write nothing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { startTeamTestCluster } from "../../../tests/helpers/team-cluster.ts";
import { insertTeamSessions } from "../../../tests/helpers/team-fixture.ts";
import { claudeProjectDirName } from "../../config/claude-paths.ts";
import { addTeamMember } from "../../team/members.ts";
import { migrateTeamSchema } from "../../team/migrate.ts";

const { started, cluster, connectAs } = await startTeamTestCluster();

const GZIP_ID = "11111111-2222-4333-8444-555555555555";
const ZSTD_ID = "22222222-3333-4444-8555-666666666666";
const DAMAGED_ID = "33333333-4444-4555-8666-777777777777";
const TOO_LARGE_ID = "44444444-5555-4666-8777-888888888888";
const ROOT_ID = "55555555-6666-4777-8888-999999999999";
const LOCAL_ID = "66666666-7777-4888-8999-aaaaaaaaaaaa";
const CONFLICT_ID = "88888888-9999-4aaa-8bbb-cccccccccccc";
const AT = "77777777-8888-4999-8aaa-bbbbbbbbbbbb";
const ALICE_REPO = "/home/alice/work/app";

/** Alice's transcript: the envelope's cwd in her monorepo package, a `cd` into another package, a nested cwd in a
 *  tool result, and a folder outside her checkout, which stays as it is. */
function aliceTranscript(id: string): string {
  const line = (value: object) => JSON.stringify({ sessionId: id, ...value });
  return `${[
    line({ type: "user", uuid: "u1", cwd: `${ALICE_REPO}/packages/web`, message: { role: "user", content: "fix it" } }),
    line({
      type: "assistant",
      uuid: "u2",
      cwd: `${ALICE_REPO}/packages/api`,
      message: { role: "assistant", content: "ok" },
    }),
    line({
      type: "user",
      uuid: "u3",
      cwd: `${ALICE_REPO}/packages/web`,
      toolUseResult: { cwd: `${ALICE_REPO}/packages/api/src` },
    }),
    line({ type: "user", uuid: "u4", cwd: "/tmp/elsewhere", message: { role: "user", content: "[REDACTED:token]" } }),
  ].join("\n")}\n`;
}

describe.skipIf(cluster === null)(`ctx fork${"skipReason" in started ? ` (${started.skipReason})` : ""}`, () => {
  const pg = cluster as NonNullable<typeof cluster>;
  let base: string;
  let claudeDir: string;
  let checkout: string;
  let env: NodeJS.ProcessEnv;
  const run = (argv: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}) =>
    runCliCaptured(["fork", ...argv], { cwd, env: { ...env, ...extraEnv } });
  const projectFiles = () =>
    existsSync(join(claudeDir, "projects"))
      ? readdirSync(join(claudeDir, "projects"), { recursive: true, encoding: "utf8" }).sort()
      : [];

  beforeAll(async () => {
    for (const role of ["owner", "alice", "bob"]) await pg.createRole(role, `${role}-pw`);
    await pg.sql('CREATE DATABASE library OWNER "owner"');
    const owner = await connectAs("owner");
    await migrateTeamSchema(owner);
    await addTeamMember(owner, { role: "alice", team: "web", handle: "ali\u001b[31mce" });
    await addTeamMember(owner, { role: "bob", team: "web" });
    const alice = await connectAs("alice");
    const web = { remote: "github.com/acme/app", repoPath: "packages/web" };
    const rootLine = JSON.stringify({ sessionId: ROOT_ID, type: "user", uuid: "r1", cwd: ALICE_REPO });
    await insertTeamSessions(alice, "web", [
      { ...web, id: GZIP_ID, title: "fix the cache\nfork: rm -rf /", transcript: aliceTranscript(GZIP_ID) },
      { ...web, id: ZSTD_ID, title: "", codec: "zstd", transcript: aliceTranscript(ZSTD_ID) },
      { ...web, id: DAMAGED_ID, title: "", transcript: aliceTranscript(DAMAGED_ID), sha256: "0".repeat(64) },
      { ...web, id: TOO_LARGE_ID, title: "", forkable: false },
      { ...web, id: CONFLICT_ID, title: "", transcript: aliceTranscript(CONFLICT_ID) },
      { remote: "github.com/acme/app", id: ROOT_ID, title: "", transcript: `${rootLine}\n` },
    ]);

    base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-fork-")));
    claudeDir = join(base, "bob-claude");
    // Bob's clone of the same remote (over ssh, where Alice's is https), in another folder.
    checkout = join(base, "bob", "src", "app-clone");
    mkdirSync(join(checkout, ".git"), { recursive: true });
    mkdirSync(join(checkout, "packages", "web"), { recursive: true });
    writeFileSync(
      join(checkout, ".git", "config"),
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://github.com/other/thing.git\n[remote "origin"]\n\turl = git@github.com:acme/app.git\n',
    );
    env = {
      HOME: base,
      CTX_HOME: join(base, "ctx-home"),
      CLAUDE_CONFIG_DIR: claudeDir,
      CTX_TEAM__URL: pg.url("bob", "bob-pw", "library"),
      CTX_TEAM__NAME: "web",
    };
  });

  it("writes a gzip'd teammate's session into the project folder of this checkout, cwd moved, and prints the command", async () => {
    const result = await run([GZIP_ID, "--print"], join(checkout, "packages", "web"));
    const folder = join(checkout, "packages", "web");
    expect(result.stdout).toBe(`cd ${folder} && claude --resume ${GZIP_ID} --fork-session\n`);
    const written = join(claudeDir, "projects", claudeProjectDirName(folder), `${GZIP_ID}.jsonl`);
    const lines = readFileSync(written, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.cwd)).toEqual([
      `${checkout}/packages/web`,
      `${checkout}/packages/api`,
      `${checkout}/packages/web`,
      "/tmp/elsewhere",
    ]);
    expect(lines[2].toolUseResult.cwd).toBe(`${checkout}/packages/api/src`);
    expect(lines[3].message.content).toBe("[REDACTED:token]");
    expect(result.stderr).toContain("REDACTED copy its author pushed");
    expect(result.stderr).toContain(`written to ${written}`);
    // The author and title are the server's text: one line each, no terminal control.
    expect(result.stderr).not.toContain("\u001b");
    expect(result.stderr).not.toMatch(/^fork: rm/m);

    // Again: the identical copy is left as it is.
    const again = await run([GZIP_ID, "--print"], join(checkout, "packages", "web"));
    expect(again.stdout).toBe(result.stdout);
  });

  it("finds the checkout among Claude Code's known folders, reads zstd, and forks at a message with --json", async () => {
    const elsewhere = join(base, "not-a-repo");
    mkdirSync(elsewhere, { recursive: true });
    // Claude Code has run in Bob's checkout (the first test's fork left its transcript there).
    const result = await run([ZSTD_ID, "--at", AT, "--json"], elsewhere);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      sessionId: ZSTD_ID,
      source: "team",
      redacted: true,
      cwd: join(checkout, "packages", "web"),
      forkCommand: `cd ${join(checkout, "packages", "web")} && claude --resume ${ZSTD_ID} --fork-session --resume-session-at ${AT}`,
      team: {
        team: "web",
        project: "github.com/acme/app/packages/web",
        checkout,
        written: true,
        rewrittenCwdFields: 4,
      },
    });
    expect(existsSync(report.transcriptPath)).toBe(true);
  });

  it("a session at the repository's root forks from the checkout's root", async () => {
    const result = await run([ROOT_ID, "--print", "--checkout", checkout], base);
    expect(result.stdout).toBe(`cd ${checkout} && claude --resume ${ROOT_ID} --fork-session\n`);
    const written = join(claudeDir, "projects", claudeProjectDirName(checkout), `${ROOT_ID}.jsonl`);
    expect(JSON.parse(readFileSync(written, "utf8")).cwd).toBe(checkout);
  });

  it("refuses a damaged transcript and a session pushed without one, writing nothing", async () => {
    const before = projectFiles();
    const damaged = await rejectedCtxError(run([DAMAGED_ID, "--print"], checkout));
    expect(damaged.code).toBe("STATE_CORRUPT");
    expect(damaged.message).toContain("SHA-256 does not match");
    const large = await rejectedCtxError(run([TOO_LARGE_ID, "--print"], checkout));
    expect(large.code).toBe("NOT_FOUND");
    expect(large.message).toContain("cannot be forked");
    expect(large.hint).toContain("too large to upload");
    expect(projectFiles()).toEqual(before);
  });

  it("without a checkout, fails with the --checkout hint; a folder of another repository is refused", async () => {
    const emptyClaude = join(base, "empty-claude");
    const lost = await rejectedCtxError(run([GZIP_ID, "--print"], base, { CLAUDE_CONFIG_DIR: emptyClaude }));
    expect(lost.message).toContain("no checkout of github.com/acme/app/packages/web");
    expect(lost.hint).toContain("--checkout <dir>");
    const other = join(base, "other");
    mkdirSync(join(other, ".git"), { recursive: true });
    writeFileSync(join(other, ".git", "config"), '[remote "origin"]\n\turl = https://github.com/acme/other\n');
    const wrong = await rejectedCtxError(
      run([GZIP_ID, "--print", "--checkout", other], base, { CLAUDE_CONFIG_DIR: emptyClaude }),
    );
    expect(wrong.message).toContain("its remotes: github.com/acme/other");
    expect(existsSync(emptyClaude)).toBe(false);
  });

  it("never writes over what is at the target that is not a regular file", async () => {
    const folder = join(checkout, "packages", "web");
    const target = join(claudeDir, "projects", claudeProjectDirName(folder), `${CONFLICT_ID}.jsonl`);
    mkdirSync(target, { recursive: true });
    const conflict = await rejectedCtxError(run([CONFLICT_ID, "--print"], folder));
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.message).toContain("is not a regular file");
    expect(readdirSync(target)).toEqual([]);
  });

  it("forks a local session as /fork-detect does, and quotes a hostile id", async () => {
    const project = join(claudeDir, "projects", "-home-bob-notes");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `${LOCAL_ID}.jsonl`), `${JSON.stringify({ cwd: "/home/bob/my notes" })}\n`);
    const local = await run([LOCAL_ID, "--at", AT], base);
    expect(local.stdout).toBe(
      `cd '/home/bob/my notes' && claude --resume ${LOCAL_ID} --fork-session --resume-session-at ${AT}\n`,
    );
    expect(local.stderr).toBe("");
    const json = JSON.parse((await run([LOCAL_ID, "--json"], base)).stdout);
    expect(json).toMatchObject({ source: "local", redacted: false, cwd: "/home/bob/my notes" });

    writeFileSync(join(project, "a;touch PWN.jsonl"), `${JSON.stringify({ cwd: "/home/bob/x" })}\n`);
    const hostile = await run(["a;touch PWN", "--print"], base);
    expect(hostile.stdout).toBe("cd /home/bob/x && claude '--resume=a;touch PWN' --fork-session\n");
    // Not on this machine: never fetched or written under such a name.
    const refused = await rejectedCtxError(run(["b;touch PWN", "--print"], base));
    expect(refused.code).toBe("USAGE");
    expect(refused.message).toContain("is not a Claude Code session id");
    for (const bad of ["../x", "a/b"]) {
      expect((await rejectedCtxError(run([bad], base))).code).toBe("USAGE");
    }
    expect((await rejectedCtxError(run([LOCAL_ID, "--at", "$(touch PWN)"], base))).code).toBe("USAGE");
  });
});
