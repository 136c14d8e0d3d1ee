// One connection to the team server (node-postgres, docs/team.md says why): the URL checked, a connect time limit
// (`team.connectTimeoutMs`), the session's settings fixed in the startup packet (teamSessionSettings), and every
// failure turned into a CtxError whose text shows the server without its credentials and quotes the driver with
// every known password taken out. The password comes from the URL, else PGPASSWORD, else ~/.pgpass (node-postgres
// reads both, as libpq does); TLS from `sslmode` in the URL.
import pg from "pg";
import { parseIntoClientConfig } from "pg-connection-string";
import pgPass from "pgpass";
import { defaultConfig } from "../config/defaults.ts";
import { describeTeamUrl, hideSecrets, parseTeamUrl, passwordsInUrl } from "../core/team/server-url.ts";
import { CtxError, describeError } from "../errors.ts";

export interface TeamConnectOptions {
  connectTimeoutMs: number;
  /** The server's lock_timeout for every statement (`team.lockTimeoutMs`; its default when absent). */
  lockTimeoutMs?: number;
  /** The server's statement_timeout for every statement (`team.statementTimeoutMs`; its default when absent). */
  statementTimeoutMs?: number;
  /** A time limit on each query (node-postgres's query_timeout); none when absent. */
  queryTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export type TeamClient = pg.Client;

/**
 * The search_path of every session ctx opens, and why it is this. Untyped parameters and literals let PostgreSQL's
 * overload resolution prefer a function or operator someone created in a schema on the path (CVE-2018-1058: a
 * `public.plainto_tsquery(text, text)` beats `pg_catalog.plainto_tsquery(regconfig, text)`, and runs as the caller).
 * Only pg_catalog and the session's own temporary schema (which only this session can create in) are on it:
 * PostgreSQL never looks functions or operators up in pg_temp (since CVE-2007-2138), and looks its tables and types up
 * after pg_catalog's only when it is listed explicitly, last (unlisted, it would come first; the docs' search_path
 * setting and "Writing SECURITY DEFINER Functions Safely"). So an operator or a type ctx writes unqualified (`=`,
 * `||`, `text`) is pg_catalog's. ctx's SQL also names its tables and functions by schema and types its parameters.
 */
export const TEAM_SEARCH_PATH = "pg_catalog,pg_temp";

/**
 * The settings each team session starts with, in the startup packet so they hold before the first statement (a
 * role's or database's own search_path, ALTER ROLE … SET, comes before a startup option and is overridden by it):
 * JIT off, then any `options=` the URL gives (which may turn it on again), then the pinned search_path (the later -c
 * wins), and the two timeouts. JIT compiles a statement whose estimated cost passes jit_above_cost (100,000 by
 * default) before running it, and ctx's statements are short: a search's candidates, sent without scored terms (a team
 * with no statistics yet), was estimated at 39 million at 10 members x 10,000 sessions and spent 424 of its 611 ms
 * compiling (docs/team.md "At scale").
 */
export function teamSessionSettings(
  fromUrlOptions: string | undefined,
  timeouts: { lockTimeoutMs: number; statementTimeoutMs: number },
): { options: string; lock_timeout: number; statement_timeout: number } {
  // No space in a value: the startup packet's options are split on spaces.
  const pin = `-c search_path=${TEAM_SEARCH_PATH}`;
  const url = fromUrlOptions === undefined || fromUrlOptions.trim() === "" ? [] : [fromUrlOptions];
  return {
    options: ["-c jit=off", ...url, pin].join(" "),
    lock_timeout: timeouts.lockTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
  };
}

/** The passwords this process gave the driver from ~/.pgpass: a message quoting one must not show it either. */
const resolvedPasswords = new Set<string>();

/** The passwords a message must never show: the URL's credentials, PGPASSWORD and those read from ~/.pgpass. */
export function knownPasswords(url: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = passwordsInUrl(url);
  if (env.PGPASSWORD) found.push(env.PGPASSWORD);
  found.push(...resolvedPasswords);
  return found;
}

/** An error's text with every password this process knows of hidden: the one masking of a team error's words. */
export function describeTeamFailure(error: unknown, url: string, env: NodeJS.ProcessEnv = process.env): string {
  return hideSecrets(describeError(error), knownPasswords(url, env));
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
  const detail = describeTeamFailure(error, url, env);
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
    return new Promise((resolve) =>
      pgPass(connection, (password) => {
        if (password) resolvedPasswords.add(password);
        resolve(password);
      }),
    );
  };
}

/** Connects, or throws TEAM_UNREACHABLE naming the server (without its password) and what went wrong. */
export async function connectTeam(url: string, options: TeamConnectOptions): Promise<TeamClient> {
  parseTeamUrl(url);
  const env = options.env ?? process.env;
  // The URL parsed here rather than given as connectionString: node-postgres would let the URL's (empty) password
  // override the password function.
  const { password: _fromUrl, ...fromUrl } = parseIntoClientConfig(url.trim());
  const defaults = defaultConfig().team;
  const client = new pg.Client({
    ...fromUrl,
    // After the URL's parameters: a URL's own statement_timeout=0 or search_path never replaces these.
    ...teamSessionSettings(fromUrl.options, {
      lockTimeoutMs: options.lockTimeoutMs ?? defaults.lockTimeoutMs,
      statementTimeoutMs: options.statementTimeoutMs ?? defaults.statementTimeoutMs,
    }),
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

/**
 * A statement the server cancelled at `team.lockTimeoutMs` (55P03: a lock another session holds) or
 * `team.statementTimeoutMs` (57014), said as such; null for any other error. What was not committed is rolled back,
 * and a push keeps its outbox (it acknowledges a batch only after its COMMIT).
 */
/** The server's SQLSTATE on a node-postgres error, or null. */
export function sqlState(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

export function teamTimeoutError(error: unknown, url: string, options: TeamConnectOptions): CtxError | null {
  const code = sqlState(error);
  const message = describeError(error);
  const defaults = defaultConfig().team;
  const server = describeTeamUrl(url);
  if (code === "55P03" && /lock timeout/i.test(message)) {
    const ms = options.lockTimeoutMs ?? defaults.lockTimeoutMs;
    return new CtxError(
      "TEAM_UNREACHABLE",
      `the team server (${server}) gave up waiting for a lock after ${ms} ms (team.lockTimeoutMs)`,
      {
        hint: "another session holds a lock on ctx's tables; nothing was changed by this statement (a push keeps its outbox): try again later, and if it lasts ask the administrator to look at pg_locks",
      },
    );
  }
  if (code === "57014" && /statement timeout/i.test(message)) {
    const ms = options.statementTimeoutMs ?? defaults.statementTimeoutMs;
    return new CtxError(
      "TEAM_UNREACHABLE",
      `a statement on the team server (${server}) ran past ${ms} ms (team.statementTimeoutMs)`,
      {
        hint: "the server is busy or a statement is too large for the limit; nothing was changed by it (a push keeps its outbox): try again, or raise team.statementTimeoutMs",
      },
    );
  }
  return null;
}

/** The connect options from the `team` settings: every command and search connects with all three limits. */
export function teamConnectOptions(
  team: { connectTimeoutMs: number; lockTimeoutMs: number; statementTimeoutMs: number },
  env: NodeJS.ProcessEnv,
): TeamConnectOptions {
  const { connectTimeoutMs, lockTimeoutMs, statementTimeoutMs } = team;
  return { connectTimeoutMs, lockTimeoutMs, statementTimeoutMs, env };
}

/** Runs `work` on a fresh connection and always closes it (`background`: returns without waiting for the close). */
export async function withTeamClient<T>(
  url: string,
  options: TeamConnectOptions,
  work: (client: TeamClient) => Promise<T>,
  ending: "await" | "background" = "await",
): Promise<T> {
  const client = await connectTeam(url, options);
  try {
    return await work(client);
  } catch (error) {
    if (error instanceof CtxError) throw error;
    throw (
      teamTimeoutError(error, url, options) ??
      teamError("TEAM_REFUSED", "the team server refused", error, url, options.env ?? process.env)
    );
  } finally {
    // Ending sends Terminate at once; the server's close comes after its process exits (10-15 ms for a search's new
    // server process at 10 members x 10,000 sessions), which a search need not wait for.
    const ended = client.end().catch(() => {});
    if (ending === "await") await ended;
  }
}
