// A throwaway PostgreSQL cluster for tests that need a real server (the team library, src/team/): `initdb` into a
// fresh folder, `postgres` on a free 127.0.0.1 port with its socket in that folder, a superuser with a password,
// and a teardown that stops it (`pg_ctl stop -m immediate`) and removes the folder. PostgreSQL refuses to run as
// root, so as root the server runs as nobody (65534) through `setpriv`, in a folder under /tmp given to that uid
// (the test run's own TMPDIR is 0700 root, which nobody cannot enter). Without PostgreSQL, tests skip with a
// reason, except under CI (`CI` set), where they fail (the same rule as tests/e2e/harness/claude-cli.ts).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { isCi } from "./required-tool.ts";

const NOBODY = 65_534;
export const PG_SUPERUSER = "ctx_admin";
export const PG_SUPERUSER_PASSWORD = "admin-secret-pw";

export interface PgCluster {
  host: string;
  port: number;
  /** The folder holding the data directory and the socket. */
  dir: string;
  /** `postgresql://user:password@127.0.0.1:port/database` (database `postgres` unless named). */
  url(user: string, password: string | null, database?: string): string;
  /** The superuser's URL. */
  adminUrl(database?: string): string;
  /** Runs SQL as the superuser (in `database`, `postgres` by default). */
  sql(text: string, database?: string): Promise<pg.QueryResult>;
  /** Creates a login role with a password (and nothing else). */
  createRole(name: string, password: string): Promise<void>;
  /** Creates a database owned by the superuser. */
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server (fast shutdown: connections are cut) and keeps its data, for `startServer`. */
  stopServer(): Promise<void>;
  /** Starts the server stopped by `stopServer` again, on the same port. */
  startServer(): Promise<void>;
}

export type PgClusterResult = { cluster: PgCluster } | { skipReason: string };

/** The folder holding initdb, pg_ctl and postgres: PG_BIN, `pg_config --bindir`, or Debian's /usr/lib/postgresql/<v>/bin. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = [];
  if (env.PG_BIN) candidates.push(env.PG_BIN);
  const config = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (config.status === 0) candidates.push(config.stdout.trim());
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(join(debian, v, "bin"));
  }
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** The command line that runs `bin` as the cluster's owner (nobody when we are root). */
function asOwner(bin: string, args: string[]): [string, string[]] {
  if (!asRoot) return [bin, args];
  return ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", bin, ...args]];
}

function run(bin: string, args: string[], timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const [command, argv] = asOwner(bin, args);
  return new Promise((resolve) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs, env: cleanEnv() });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The server must not pick up the test's PG* variables or a HOME it cannot read. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C.UTF-8", TZ: "UTC" };
  return env;
}

/** Starts a cluster, or says why it cannot (skip outside CI; under CI this throws instead). */
export async function startPgCluster(): Promise<PgClusterResult> {
  const bin = findPostgresBin();
  if (bin === null) {
    const reason = "PostgreSQL (initdb, pg_ctl) is not installed: apt-get install postgresql, or set PG_BIN";
    if (isCi(process.env)) throw new Error(`${reason} (CI is set, so this fails instead of skipping)`);
    return { skipReason: reason };
  }
  // Under /tmp itself: nobody must be able to reach the folder, and a socket path has a 107-byte limit.
  const dir = await mkdtemp(join("/tmp", "ctx-pg-"));
  const stopAndRemove = async () => {
    await run(join(bin, "pg_ctl"), ["stop", "-D", join(dir, "data"), "-m", "immediate", "-w"], 30_000);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    if (asRoot) await chown(dir, NOBODY, NOBODY);
    const passwordFile = join(dir, "pwfile");
    await writeFile(passwordFile, `${PG_SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
    if (asRoot) await chown(passwordFile, NOBODY, NOBODY);
    const init = await run(join(bin, "initdb"), [
      "-D",
      join(dir, "data"),
      "-U",
      PG_SUPERUSER,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C.UTF-8",
      "--no-sync",
    ]);
    if (init.code !== 0) throw new Error(`initdb failed: ${init.output}`);
    const port = await freePort();
    const options = [
      `-p ${port}`,
      "-h 127.0.0.1",
      `-k ${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=60",
      "-c shared_buffers=32MB",
    ].join(" ");
    const startServer = async () => {
      const start = await run(join(bin, "pg_ctl"), [
        "start",
        "-D",
        join(dir, "data"),
        "-o",
        options,
        "-l",
        join(dir, "server.log"),
        "-w",
        "-t",
        "60",
      ]);
      if (start.code !== 0) throw new Error(`pg_ctl start failed: ${start.output}`);
    };
    const stopServer = async () => {
      const stop = await run(join(bin, "pg_ctl"), ["stop", "-D", join(dir, "data"), "-m", "fast", "-w"], 30_000);
      if (stop.code !== 0) throw new Error(`pg_ctl stop failed: ${stop.output}`);
    };
    await startServer();
    return { cluster: makeCluster(dir, port, stopAndRemove, { startServer, stopServer }) };
  } catch (error) {
    await stopAndRemove();
    throw error;
  }
}

function makeCluster(
  dir: string,
  port: number,
  stopAndRemove: () => Promise<void>,
  server: { startServer: () => Promise<void>; stopServer: () => Promise<void> },
): PgCluster {
  const host = "127.0.0.1";
  const url = (user: string, password: string | null, database = "postgres") =>
    `postgresql://${encodeURIComponent(user)}${password === null ? "" : `:${encodeURIComponent(password)}`}@${host}:${port}/${database}`;
  const adminUrl = (database?: string) => url(PG_SUPERUSER, PG_SUPERUSER_PASSWORD, database);
  const sql = async (text: string, database?: string) => {
    const client = new pg.Client({ connectionString: adminUrl(database) });
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };
  let stopped = false;
  return {
    host,
    port,
    dir,
    url,
    adminUrl,
    sql,
    async createRole(name, password) {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      try {
        await client.query(
          `CREATE ROLE ${client.escapeIdentifier(name)} LOGIN PASSWORD ${client.escapeLiteral(password)}`,
        );
      } finally {
        await client.end();
      }
    },
    async createDatabase(name) {
      await sql(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    },
    stopServer: server.stopServer,
    startServer: server.startServer,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopAndRemove();
    },
  };
}
