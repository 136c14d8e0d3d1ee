// A teammate's session forked with the real Claude Code CLI (pinned release, offline against the mock Messages
// API): Alice's session, made by Claude Code in her clone, is put on a real team server (PostgreSQL) as she would
// push it; Bob, with his own HOME and a clone of the same remote in another folder, runs `ctx fork <id> --print`
// and then the printed `claude --resume <id> --fork-session`: Claude Code accepts the written transcript, starts a
// new session from Bob's folder and sends Alice's conversation to the model. Skips with a reason when the CLI or
// PostgreSQL is missing, unless CI is set.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { connectTeam } from "../../src/team/connect.ts";
import { addTeamMember } from "../../src/team/members.ts";
import { migrateTeamSchema } from "../../src/team/migrate.ts";
import { startPgCluster } from "../helpers/pg-cluster.ts";
import { insertTeamSessions } from "../helpers/team-fixture.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { createSandbox, runCtx, runProcess, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
const skip = "skipReason" in cli ? cli.skipReason : "skipReason" in started ? started.skipReason : null;
if (skip !== null) process.stderr.write(`claude-code-team-fork.test.ts skipped: ${skip}\n`);

const TIMEOUT_MS = 180_000;
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});
afterAll(async () => cluster?.stop());

describe.skipIf(skip !== null)(`a teammate's session forked in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it(
    "Claude Code resumes the fetched transcript as a fork from the second member's checkout",
    async () => {
      const pg = cluster as NonNullable<typeof cluster>;
      const alice = await createSandbox({ claudeBin });
      const bob = await createSandbox({ claudeBin });
      sandboxes.push(alice, bob);
      for (const [sandbox, dir, url] of [
        [alice, alice.project, "https://github.com/acme/app.git"],
        [bob, bob.project, "git@github.com:acme/app.git"],
      ] as const) {
        const result = await runProcess("git", ["remote", "add", "origin", url], sandbox.env, { cwd: dir });
        expect(result.exitCode, result.stderr).toBe(0);
      }
      const bobCheckout = bob.project;

      const mock = await startMockAnthropic({});
      try {
        const first = await runClaudeTurn({
          sandbox: alice,
          mock,
          prompt: "make the zorblax cache thread-safe",
          turns: [{ text: "The zorblax cache now takes a lock." }],
        });
        expect(first.exitCode, `${first.stdout}\n${first.stderr}`).toBe(0);
        const sessionId = first.result?.session_id ?? "";
        const transcript = readFileSync(first.transcriptPath ?? "", "utf8");
        expect(transcript).toContain(alice.project);

        for (const role of ["owner", "alice", "bob"]) await pg.createRole(role, `${role}-pw`);
        await pg.sql('CREATE DATABASE library OWNER "owner"');
        const owner = await connectTeam(pg.url("owner", "owner-pw", "library"), { connectTimeoutMs: 5_000 });
        const aliceClient = await connectTeam(pg.url("alice", "alice-pw", "library"), { connectTimeoutMs: 5_000 });
        try {
          await migrateTeamSchema(owner);
          await addTeamMember(owner, { role: "alice", team: "web" });
          await addTeamMember(owner, { role: "bob", team: "web" });
          await insertTeamSessions(aliceClient, "web", [
            { id: sessionId, remote: "github.com/acme/app", title: "zorblax cache", transcript, codec: "zstd" },
          ]);
        } finally {
          await owner.end();
          await aliceClient.end();
        }

        const teamEnv = { CTX_TEAM__URL: pg.url("bob", "bob-pw", "library"), CTX_TEAM__NAME: "web" };
        const fork = await runCtx(bob, ["fork", sessionId, "--print"], { cwd: bobCheckout, env: teamEnv });
        expect(fork.exitCode, fork.stderr).toBe(0);
        expect(fork.stdout).toBe(`cd ${bobCheckout} && claude --resume ${sessionId} --fork-session\n`);
        expect(fork.stderr).toContain("REDACTED");

        const forked = await runClaudeTurn({
          sandbox: bob,
          mock,
          prompt: "now add a test for the zorblax lock",
          turns: [{ text: "Added the test." }],
          args: ["--resume", sessionId, "--fork-session"],
          cwd: bobCheckout,
        });
        expect(forked.exitCode, `${forked.stdout}\n${forked.stderr}`).toBe(0);
        const forkId = forked.result?.session_id ?? "";
        expect(forkId).not.toBe("");
        expect(forkId).not.toBe(sessionId);
        // The model saw Alice's conversation, then Bob's prompt.
        const sent = JSON.stringify(forked.requests.at(-1)?.body?.messages ?? []);
        expect(sent).toContain("make the zorblax cache thread-safe");
        expect(sent).toContain("now add a test for the zorblax lock");
        // The fork is Bob's: in his project folder, with his checkout as its cwd.
        expect(forked.transcriptPath).toContain(join(bob.home, ".claude", "projects"));
        const cwds = readFileSync(forked.transcriptPath ?? "", "utf8")
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => (JSON.parse(line) as { cwd?: string }).cwd)
          .filter((cwd) => cwd !== undefined);
        expect(cwds.length).toBeGreaterThan(2);
        // Alice's folder survives only in prose the transcript quotes (the environment reminder), never as a cwd.
        expect(new Set(cwds)).toEqual(new Set([bobCheckout]));
      } finally {
        await mock.close();
      }
    },
    TIMEOUT_MS,
  );
});
