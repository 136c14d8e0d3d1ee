// Issue 31, section 3: push never gets stuck. On a real PostgreSQL (every role may create in public, as on 14), the
// built ctx as one member: a transcript line holding a NUL and a lone surrogate once failed every later push for good
// (`invalid byte sequence for encoding "UTF8": 0x00`), the background pusher included. Here `ctx team share` and a
// later `ctx index` start the background pusher, which pushes everything, the session with the NUL too, grown with
// another NUL. Then a server stricter than this ctx (a CHECK the administrator added) refuses one session's chunks: the
// push sets that one aside, the others land, and `ctx team status` names it, in one line, until it is tried again.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, migrateTeam } from "../../src/team/service.ts";
import { assertBuilt, CTX_BIN, runProcess } from "../e2e/ctx-process.ts";
import { FIXTURE } from "../helpers/claude-projects.ts";
import { startPgCluster } from "../helpers/pg-cluster.ts";
import { createTeamCheckout } from "../helpers/team-checkout.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
let base = "";
afterAll(async () => {
  await cluster?.stop();
  if (base !== "") rmSync(base, { recursive: true, force: true });
});

/** A word the stricter server refuses in a chunk, planted in one session's prompt. */
const REFUSED_WORD = "quarantinable";

describe.skipIf(cluster === null)(
  `push never gets stuck${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    let repo: string;
    let folder: string;
    let env: NodeJS.ProcessEnv;
    const ids: string[] = [];
    let withNul = "";
    let refused = "";
    const sql = async (text: string) => (await pg.sql(text, "library")).rows;
    const serverSessions = async () =>
      (await sql("SELECT id, message_count FROM ctx_team.sessions ORDER BY id")).map((r) => ({
        id: String(r.id),
        messages: Number(r.message_count),
      }));
    const ctx = (args: string[]) =>
      runProcess(process.execPath, [CTX_BIN, ...args], { cwd: repo, env, timeoutMs: 60_000 });
    /** Waits (bounded) for the background pusher to have taken its lock and let it go, then for `done`. */
    const afterPusher = async (done: () => Promise<boolean>) => {
      const lock = join(env.CTX_HOME as string, "team", "pusher.lock");
      for (let i = 0; i < 300 && !(await done()); i += 1) await sleep(100);
      for (let i = 0; i < 100 && existsSync(lock); i += 1) await sleep(100);
      expect(existsSync(lock)).toBe(false);
    };
    const status = async () => {
      const run = await ctx(["team", "status", "--json"]);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout);
    };

    beforeAll(async () => {
      assertBuilt();
      await pg.createDatabase("library");
      await pg.sql("GRANT CREATE ON SCHEMA public TO PUBLIC", "library");
      await pg.createRole("alice", "alice-pw");
      await migrateTeam(pg.adminUrl("library"), { connectTimeoutMs: 5_000 });
      await addMember(pg.adminUrl("library"), { connectTimeoutMs: 5_000 }, { role: "alice", team: "web" });
      base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-push-stuck-")));
      const checkout = createTeamCheckout({
        base,
        name: "app",
        remote: "https://github.com/acme/app.git",
        files: [FIXTURE.short, FIXTURE.toolHeavy, FIXTURE.subagent],
        transform: (text, { file, id }) => {
          if (file !== FIXTURE.short) return text;
          withNul = id;
          // As Claude Code writes them: JSON escapes of a NUL and of half an emoji, in a prompt and in the branch.
          return text
            .replace(
              '"content":"mix phx.server doesnt seem to start"',
              '"content":"mix phx.server doesnt seem to start\\u0000 after a NUL \\ud83d half an emoji"',
            )
            .replaceAll('"gitBranch":"master"', '"gitBranch":"mas\\u0000ter"');
        },
      });
      ({ repo, folder } = checkout);
      ids.push(...checkout.ids);
      ids.sort();
      env = {
        PATH: process.env.PATH,
        TMPDIR: process.env.TMPDIR,
        HOME: base,
        CTX_HOME: join(base, "ctx-home"),
        CLAUDE_CONFIG_DIR: checkout.claudeDir,
        CTX_TEAM__URL: pg.url("alice", "alice-pw", "library"),
        CTX_TEAM__NAME: "web",
        CTX_LOG_LEVEL: "warn",
      };
      const indexed = await ctx(["index", "--quiet"]);
      expect(indexed.code, indexed.stderr).toBe(0);
    });

    it("share's background pusher pushes a transcript holding NUL and a lone surrogate, and a later index's too", async () => {
      const shared = await ctx(["team", "share", "--json"]);
      expect(shared.code, shared.stderr).toBe(0);
      expect(JSON.parse(shared.stdout)).toMatchObject({ queued: ids.length });
      await afterPusher(async () => (await serverSessions()).length === ids.length);
      const before = await serverSessions();
      expect(before.map((s) => s.id)).toEqual(ids);
      // The session grows by a prompt with another NUL: `ctx index` queues it and its pusher sends it.
      const file = join(folder, `${withNul}.jsonl`);
      const text = readFileSync(file, "utf8");
      const prompt = JSON.parse(text.split("\n")[3] as string);
      prompt.uuid = "0b9c1f4e-2222-4a7e-9a57-2f1b3c4d5e6f";
      prompt.message.content = "and again \u0000 a NUL";
      writeFileSync(file, `${text}${JSON.stringify(prompt)}\n`);
      const indexed = await ctx(["index", "--quiet"]);
      expect(indexed.code, indexed.stderr).toBe(0);
      const grown = (before.find((s) => s.id === withNul)?.messages ?? 0) + 1;
      await afterPusher(async () => (await serverSessions()).find((s) => s.id === withNul)?.messages === grown);
      expect((await serverSessions()).find((s) => s.id === withNul)?.messages).toBe(grown);
      const [row] = await sql(`SELECT branch FROM ctx_team.sessions WHERE id = '${withNul}'`);
      expect(row?.branch).toBe("mas\ufffdter");
      expect((await status()).sharing).toMatchObject({ outbox: { items: 0 }, lastError: null, setAside: [] });
    }, 120_000);

    it("a stricter server refuses one session: it is set aside with its reason, the rest lands, status names it", async () => {
      // Another session gets a prompt with the word; the administrator's new rule refuses chunks holding it.
      refused = ids.find((id) => id !== withNul) as string;
      const file = join(folder, `${refused}.jsonl`);
      const text = readFileSync(file, "utf8");
      const lines = text.split("\n").filter((l) => l !== "");
      const last = JSON.parse(lines.at(-1) as string);
      const prompt = JSON.parse(lines.find((l) => l.includes('"type":"user"')) as string);
      delete prompt.toolUseResult;
      prompt.parentUuid = last.uuid;
      prompt.uuid = "0b9c1f4e-3333-4a7e-9a57-2f1b3c4d5e6f";
      prompt.message = { role: "user", content: `please ${REFUSED_WORD} this` };
      writeFileSync(file, `${text}${JSON.stringify(prompt)}\n`);
      await sql(
        `ALTER TABLE ctx_team.chunks ADD CONSTRAINT no_${REFUSED_WORD} CHECK (strpos(text, '${REFUSED_WORD}') = 0)`,
      );
      const before = await serverSessions();
      // Every session queued again (as `ctx index --full` does), then pushed by hand.
      const full = await ctx(["index", "--full", "--quiet"]);
      expect(full.code, full.stderr).toBe(0);
      const lock = join(env.CTX_HOME as string, "team", "pusher.lock");
      for (let i = 0; i < 100 && existsSync(lock); i += 1) await sleep(100);
      const pushed = await ctx(["team", "push"]);
      expect(pushed.code, pushed.stderr).toBe(0);
      const after = await serverSessions();
      expect(after.map((s) => s.id)).toEqual(ids);
      // The refused session's server copy is the one before; nothing of it with the word went up.
      expect(after.find((s) => s.id === refused)).toEqual(before.find((s) => s.id === refused));
      expect(await sql(`SELECT 1 FROM ctx_team.chunks WHERE text LIKE '%${REFUSED_WORD}%'`)).toEqual([]);
      const json = await status();
      expect(json.sharing.outbox.items).toBe(0);
      expect(json.sharing.setAside).toHaveLength(1);
      expect(json.sharing.setAside[0].sessionId).toBe(refused);
      expect(json.sharing.setAside[0].reason).toContain(`no_${REFUSED_WORD}`);
      const shown = (await ctx(["team", "status"])).stdout.split("\n").filter((l) => l.startsWith("set aside"));
      expect(shown).toHaveLength(1);
      expect(shown[0]?.replace(/^set aside +/, "")).toBe(`${refused}: ${json.sharing.setAside[0].reason}`);
      // The administrator drops the rule; `--retry-set-aside` sends it.
      await sql(`ALTER TABLE ctx_team.chunks DROP CONSTRAINT no_${REFUSED_WORD}`);
      const retried = await ctx(["team", "push", "--retry-set-aside", "--json"]);
      expect(JSON.parse(retried.stdout)).toMatchObject({ outcome: "pushed", summary: { setAside: 0 } });
      expect((await sql(`SELECT 1 FROM ctx_team.chunks WHERE text LIKE '%${REFUSED_WORD}%'`)).length).toBeGreaterThan(
        0,
      );
      expect((await status()).sharing.setAside).toEqual([]);
    }, 120_000);
  },
);
