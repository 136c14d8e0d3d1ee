// Issue 31, section 2: what the team server gives `ctx fork` is a teammate's text. On a real PostgreSQL, as real
// member roles of one team: mallory (hostile), bob and carol. The built ctx forks as carol, into her checkout of the
// project. Mallory's repo_path leading out of that checkout, her first-added project row later moved, a newline in her
// remote, a transcript line nested 100,000 deep and a cwd naming another folder: carol's fork refuses with one clean
// line and writes nothing, or lands in her own checkout, never in the folder mallory chose.
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claudeProjectDirName } from "../../src/config/claude-paths.ts";
import type { TeamClient } from "../../src/team/connect.ts";
import { addTeamMember } from "../../src/team/members.ts";
import { migrateTeamSchema } from "../../src/team/migrate.ts";
import { upsertProject } from "../../src/team/push-write.ts";
import { assertBuilt, CTX_BIN, runProcess } from "../e2e/ctx-process.ts";
import { startTeamTestCluster } from "../helpers/team-cluster.ts";
import { insertTeamSessions, type TeamFixtureSession, teamIdOf } from "../helpers/team-fixture.ts";

const { started, cluster, connectAs } = await startTeamTestCluster();

const REMOTE = "github.com/acme/app";
let next = 0;
/** A fresh Claude Code session id (a UUID) per session the test puts on the server. */
const newId = () => {
  next += 1;
  return `aaaaaaaa-0000-4000-8000-${String(next).padStart(12, "0")}`;
};
const line = (id: string, cwd: string, extra: object = {}) =>
  JSON.stringify({
    sessionId: id,
    type: "user",
    uuid: `u-${id}`,
    cwd,
    message: { role: "user", content: "hi" },
    ...extra,
  });

describe.skipIf(cluster === null)(
  `a teammate's hostile session for ctx fork${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    let base: string;
    let checkout: string;
    let outside: string;
    let claudeDir: string;
    let env: NodeJS.ProcessEnv;
    let mallory: TeamClient;
    let bob: TeamClient;
    let web: string;

    const forkAsCarol = (id: string) =>
      runProcess(process.execPath, [CTX_BIN, "fork", id, "--print"], { cwd: checkout, env, timeoutMs: 60_000 });
    /** Mallory pushes one session (a new id; its transcript the lines `transcriptOf` gives), then carol forks it. */
    const forkMallorys = async (
      session: Omit<TeamFixtureSession, "id" | "transcript">,
      transcriptOf: (id: string) => string[],
    ) => {
      const id = newId();
      await insertTeamSessions(mallory, "web", [{ ...session, id, transcript: `${transcriptOf(id).join("\n")}\n` }]);
      return { id, fork: await forkAsCarol(id) };
    };
    const writtenAnywhere = () => [
      ...(existsSync(join(claudeDir, "projects"))
        ? readdirSync(join(claudeDir, "projects"), { recursive: true, encoding: "utf8" })
        : []),
      ...readdirSync(outside, { recursive: true, encoding: "utf8" }),
    ];

    beforeAll(async () => {
      assertBuilt();
      for (const role of ["owner", "mallory", "bob", "carol"]) await pg.createRole(role, `${role}-pw`);
      await pg.sql('CREATE DATABASE library OWNER "owner"');
      // As on PostgreSQL 14 and older by default: every role may create in public (issue 31's test setting).
      await pg.sql("GRANT CREATE ON SCHEMA public TO PUBLIC", "library");
      const owner = await connectAs("owner");
      await migrateTeamSchema(owner);
      for (const role of ["mallory", "bob", "carol"]) await addTeamMember(owner, { role, team: "web" });
      [mallory, bob] = [await connectAs("mallory"), await connectAs("bob")];
      web = (await teamIdOf(bob, "web")) as string;

      base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-adversarial-team-fork-")));
      // Carol's clone of the project, and a folder outside it that mallory would like her forks to land in.
      checkout = join(base, "carol", "src", "app");
      outside = join(base, "outside", "x");
      mkdirSync(join(checkout, ".git"), { recursive: true });
      mkdirSync(join(checkout, "packages", "web"), { recursive: true });
      mkdirSync(outside, { recursive: true });
      writeFileSync(join(checkout, ".git", "config"), '[remote "origin"]\n\turl = git@github.com:acme/app.git\n');
      claudeDir = join(base, "carol", ".claude");
      env = {
        PATH: process.env.PATH,
        HOME: join(base, "carol"),
        CTX_HOME: join(base, "carol", ".ctx"),
        CLAUDE_CONFIG_DIR: claudeDir,
        CTX_ARCHIVE__ENABLED: "false",
        CTX_LOG_LEVEL: "warn",
        NO_COLOR: "1",
        CTX_TEAM__URL: pg.url("carol", "carol-pw", "library"),
        CTX_TEAM__NAME: "web",
      };
    });
    afterAll(() => {
      if (base !== undefined) rmSync(base, { recursive: true, force: true });
    });
    beforeEach(() => {
      rmSync(claudeDir, { recursive: true, force: true });
      expect(readdirSync(outside)).toEqual([]);
    });

    it("break: a repo_path leading out of the checkout, absolute, or holding controls is refused; nothing written", async () => {
      const hostile = [
        "../../../outside/x",
        "packages/../../../../outside/x",
        `${outside}`,
        "./packages/web",
        "packages//web",
        "packages\\web",
        "packages/web\u001b]0;owned\u0007",
      ];
      const sessions = hostile.map((repoPath) => ({ id: newId(), repoPath }));
      await insertTeamSessions(
        mallory,
        "web",
        sessions.map(({ id, repoPath }) => ({
          id,
          remote: REMOTE,
          repoPath,
          title: "fix the cache",
          transcript: `${line(id, `/home/mallory/app/${repoPath}`)}\n`,
        })),
      );
      for (const { id, repoPath } of sessions) {
        const fork = await forkAsCarol(id);
        expect(fork.code, `${JSON.stringify(repoPath)}: ${fork.stdout}${fork.stderr}`).toBe(1);
        expect(fork.stdout).toBe("");
        expect(fork.stderr).toMatch(/^ctx: the team server gives session \S+'s project the folder .* not a plain path/);
        expect(fork.stderr.split("\n")).toHaveLength(3); // ctx: …, hint: …, and the final newline
        expect(writtenAnywhere()).toEqual([]);
      }
    });

    it("break: the member who added the project row first cannot steer where forks of bob's sessions land", async () => {
      // Mallory adds the project first (at its root, as everyone does), then bob shares and pushes his session:
      // push picks the project row with upsertProject.
      await mallory.query("INSERT INTO ctx_team.projects (team_id, remote_url, repo_path) VALUES ($1, $2, '')", [
        web,
        REMOTE,
      ]);
      const project = await upsertProject(bob, web, { remoteUrl: REMOTE, repoPath: "" });
      const id = newId();
      const transcript = Buffer.from(`${line(id, "/home/bob/app")}\n${line(id, "/home/bob/app/packages/web")}\n`);
      await bob.query(
        "INSERT INTO ctx_team.sessions (team_id, id, project_id, title, forkable) VALUES ($1, $2, $3, 'bob''s fix', true)",
        [web, id, project],
      );
      await bob.query(
        "INSERT INTO ctx_team.transcripts (team_id, session_id, codec, raw_bytes, sha256, data) VALUES ($1, $2, 'gzip', $3, $4, $5)",
        [web, id, transcript.length, createHash("sha256").update(transcript).digest("hex"), gzipSync(transcript)],
      );
      // Then mallory moves "the project" out of every checkout: she can only move her own row.
      await mallory.query("UPDATE ctx_team.projects SET repo_path = '../../../outside/./x' WHERE repo_path = ''");
      const fork = await forkAsCarol(id);
      expect(fork.code, fork.stderr).toBe(0);
      expect(fork.stdout).toBe(`cd ${checkout} && claude --resume ${id} --fork-session\n`);
      expect(writtenAnywhere()).toEqual([
        claudeProjectDirName(checkout),
        join(claudeProjectDirName(checkout), `${id}.jsonl`),
      ]);
      // On the server: bob's session is on bob's own row, which mallory could not move.
      const owners = await pg.sql(
        `SELECT p.added_by, p.repo_path FROM ctx_team.sessions s JOIN ctx_team.projects p ON p.id = s.project_id
          WHERE s.id = '${id}'`,
        "library",
      );
      expect(owners.rows).toEqual([{ added_by: "bob", repo_path: "" }]);
    });

    it("a plain repo_path that is a link in the checkout leading out of it is refused; nothing written", async () => {
      // A link committed to the repository by a hostile teammate: git checks it out as a link.
      symlinkSync(outside, join(checkout, "packages", "out"));
      const { fork } = await forkMallorys({ remote: REMOTE, repoPath: "packages/out", title: "x" }, (id) => [
        line(id, "/home/mallory/app/packages/out"),
      ]);
      expect(fork.code, fork.stderr).toBe(1);
      expect(fork.stdout).toBe("");
      expect(fork.stderr).toMatch(/^ctx: packages\/out is a symbolic link to .*, outside the checkout/);
      expect(writtenAnywhere()).toEqual([]);
    });

    it("break: a newline in the server's remote_url cannot split an error line", async () => {
      const { fork } = await forkMallorys({ remote: `${REMOTE}\nctx: forged line`, title: "x" }, (id) => [
        line(id, "/home/mallory/app"),
      ]);
      expect(fork.code).toBe(1);
      const lines = fork.stderr.split("\n");
      expect(lines, fork.stderr).toHaveLength(3);
      expect(lines[0]).toMatch(/^ctx: /);
      expect(lines[1]).toMatch(/^hint: /);
      expect(writtenAnywhere()).toEqual([]);
    });

    it("break: a transcript line nested 100,000 deep gets a clean error, no RangeError stack; nothing written", async () => {
      const deep = 100_000;
      const { fork } = await forkMallorys({ remote: REMOTE, title: "deep" }, (id) => [
        line(id, "/home/mallory/app"),
        `{"sessionId":"${id}","cwd":"/home/mallory/app","x":${"[".repeat(deep)}${"]".repeat(deep)}}`,
      ]);
      expect(fork.code).toBe(1);
      expect(fork.stderr).toMatch(/^ctx: line 2 of the transcript nests objects and arrays more than \d+ deep/);
      expect(fork.stderr).not.toMatch(/RangeError|\n\s+at /);
      expect(fork.stderr.split("\n")).toHaveLength(3);
      expect(writtenAnywhere()).toEqual([]);
    });

    it("a cwd in the transcript naming another folder does not pick where the fork runs", async () => {
      const { id, fork } = await forkMallorys(
        { remote: REMOTE, repoPath: "packages/web", title: "elsewhere" },
        (id) => [line(id, outside), line(id, "/"), line(id, `${outside}/../../..`)],
      );
      expect(fork.code, fork.stderr).toBe(0);
      const target = join(checkout, "packages", "web");
      expect(fork.stdout).toBe(`cd ${target} && claude --resume ${id} --fork-session\n`);
      expect(writtenAnywhere()).toEqual([
        claudeProjectDirName(target),
        join(claudeProjectDirName(target), `${id}.jsonl`),
      ]);
    });
  },
);
