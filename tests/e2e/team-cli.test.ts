// `ctx team` as a real process against a real PostgreSQL: the password comes from PGPASSWORD or ~/.pgpass when the
// URL has none (node-postgres reads both, as libpq does), and a refused password never reaches stdout or stderr.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, migrateTeam } from "../../src/team/service.ts";
import { startPgCluster } from "../helpers/pg-cluster.ts";
import { CTX_BIN, runProcess } from "./ctx-process.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const PASSWORD = "pgpass-Only-4417";

describe.skipIf(cluster === null)(
  `ctx team process${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    let base: string;
    let env: NodeJS.ProcessEnv;
    const runCtx = (args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) =>
      runProcess(process.execPath, [CTX_BIN, ...args], { ...options, env: { CTX_LOG_LEVEL: "warn", ...options.env } });
    const urlWithoutPassword = () => pg.url("dana", null, "library");

    beforeAll(async () => {
      await pg.createDatabase("library");
      await pg.createRole("dana", PASSWORD);
      const options = { connectTimeoutMs: 5_000 };
      await migrateTeam(pg.adminUrl("library"), options);
      await addMember(pg.adminUrl("library"), options, { role: "dana", team: "web" });
      base = mkdtempSync(join(tmpdir(), "ctx-team-e2e-"));
      mkdirSync(join(base, "repo", ".git"), { recursive: true });
      // Only what the test gives: no PG* variable of the machine running the tests may leak in.
      env = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, CTX_HOME: join(base, "ctx-home"), HOME: base };
    });

    it("joins with the password from PGPASSWORD, printing it nowhere", async () => {
      const result = await runCtx(["team", "join", urlWithoutPassword(), "--team", "web"], {
        cwd: join(base, "repo"),
        env: { ...env, PGPASSWORD: PASSWORD },
      });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`server    postgresql://dana@127.0.0.1:${pg.port}/library\n`);
      expect(result.stdout).not.toContain("note: the URL's password");
      expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
    });

    it("reads the password from ~/.pgpass", async () => {
      const pgpass = join(base, ".pgpass");
      writeFileSync(pgpass, `127.0.0.1:${pg.port}:library:dana:${PASSWORD}\n`);
      chmodSync(pgpass, 0o600);
      const result = await runCtx(["team", "status", "--json"], { cwd: join(base, "repo"), env });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ reachable: true, role: "dana", team: "web", handle: "dana" });
    });

    it("says a refused password was refused, without printing it", async () => {
      const wrong = "Not-The-Password-93";
      const result = await runCtx(["team", "join", urlWithoutPassword(), "--team", "web"], {
        cwd: join(base, "repo"),
        env: { ...env, PGPASSWORD: wrong },
      });
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("ctx: cannot connect to the team server");
      expect(result.stderr).toContain("password was refused");
      expect(`${result.stdout}${result.stderr}`).not.toContain(wrong);
    });
  },
);
