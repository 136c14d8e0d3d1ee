// One connection to the team server (node-postgres, docs/team.md says why): the URL checked, a connect time limit
// (`team.connectTimeoutMs`), and every failure turned into a CtxError whose text shows the server without its
// password and quotes the driver with every known password taken out. The password comes from the URL, else
// PGPASSWORD, else ~/.pgpass (node-postgres reads both, as libpq does); TLS from `sslmode` in the URL.
import pg from "pg";
import { parseIntoClientConfig } from "pg-connection-string";
import pgPass from "pgpass";
import { describeTeamUrl, hideSecrets, parseTeamUrl, passwordsInUrl } from "../core/team/server-url.ts";
import { CtxError, describeError } from "../errors.ts";

export interface TeamConnectOptions {
  connectTimeoutMs: number;
  /** A time limit on each query (node-postgres's query_timeout); none when absent. */
  queryTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export type TeamClient = pg.Client;

/** The passwords a message must never show: the URL's and PGPASSWORD. */
export function knownPasswords(url: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = passwordsInUrl(url);
  if (env.PGPASSWORD) found.push(env.PGPASSWORD);
  return found;
}

/** A driver or server error as a person reads it: the server without its password, the message cleaned. */
export function teamError(
  code: "TEAM_UNREACHABLE" | "TEAM_REFUSED",
  what: string,
  error: unknown,
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  hint?: string,
): CtxError {
  const detail = hideSecrets(describeError(error), knownPasswords(url, env));
  const options = hint === undefined ? {} : { hint };
  return new CtxError(code, `${what} (${describeTeamUrl(url)}): ${detail}`, options);
}

const CONNECT_HINTS: Record<string, string> = {
  "28P01": "the password was refused: check the URL, PGPASSWORD or ~/.pgpass (the password is never printed)",
  "28000":
    "the server refused this role: ask the administrator to allow it (pg_hba.conf) and to run `ctx team add-member`",
  "3D000": "that database does not exist on the server: check the URL's database name",
  ECONNREFUSED: "nothing answers at that host and port: is the server running, and is the port right?",
  ENOTFOUND: "the host name does not resolve: check the URL",
};

/**
 * The password, in libpq's order: the URL's, else PGPASSWORD, else the matching line of ~/.pgpass (PGPASSFILE).
 * Given to node-postgres as a function because its own ~/.pgpass reading is deprecated (and warns on stderr).
 */
export function resolvePassword(
  url: string,
  env: NodeJS.ProcessEnv,
): (params: pg.ClientConfig) => Promise<string | undefined> {
  return (params) => {
    const parsed = new URL(url.trim());
    const inUrl = parsed.password !== "" ? decodeURIComponent(parsed.password) : parsed.searchParams.get("password");
    if (inUrl) return Promise.resolve(inUrl);
    if (env.PGPASSWORD) return Promise.resolve(env.PGPASSWORD);
    const connection = {
      ...(params.host === undefined ? {} : { host: params.host }),
      ...(params.port === undefined ? {} : { port: params.port }),
      ...(params.database === undefined ? {} : { database: params.database }),
      ...(params.user === undefined ? {} : { user: params.user }),
    };
    return new Promise((resolve) => pgPass(connection, resolve));
  };
}

/** Connects, or throws TEAM_UNREACHABLE naming the server (without its password) and what went wrong. */
export async function connectTeam(url: string, options: TeamConnectOptions): Promise<TeamClient> {
  parseTeamUrl(url);
  const env = options.env ?? process.env;
  // The URL parsed here rather than given as connectionString: node-postgres would let the URL's (empty) password
  // override the password function.
  const { password: _fromUrl, ...fromUrl } = parseIntoClientConfig(url.trim());
  const client = new pg.Client({
    ...fromUrl,
    // node-postgres calls it with its connection parameters (lib/client.js `_getPassword`); its types omit them,
    // and undefined means "no password" there.
    password: resolvePassword(url, env) as unknown as () => Promise<string>,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
    application_name: "ctx",
  });
  // A connection dropped while idle must not crash the process; the next query fails and says so.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    const code = (error as { code?: unknown }).code;
    const hint =
      typeof code === "string"
        ? CONNECT_HINTS[code]
        : /timeout/i.test(describeError(error))
          ? `no answer within ${options.connectTimeoutMs} ms (team.connectTimeoutMs): check the host, port and firewall`
          : undefined;
    throw teamError("TEAM_UNREACHABLE", "cannot connect to the team server", error, url, env, hint);
  }
  return client;
}

/** Runs `work` on a fresh connection and always closes it. */
export async function withTeamClient<T>(
  url: string,
  options: TeamConnectOptions,
  work: (client: TeamClient) => Promise<T>,
): Promise<T> {
  const client = await connectTeam(url, options);
  try {
    return await work(client);
  } catch (error) {
    if (error instanceof CtxError) throw error;
    throw teamError("TEAM_REFUSED", "the team server refused", error, url, options.env ?? process.env);
  } finally {
    await client.end().catch(() => {});
  }
}
