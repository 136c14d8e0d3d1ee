// One team-server connection kept between searches by a long-lived process (`ctx serve`): connecting (TCP, SCRAM,
// the first catalog reads) is about a quarter of a warm team search. Dropped after a minute unused, on any failure
// (the next search connects afresh, so a restarted server costs one notice), and when the process closes it.
// The PostgreSQL client is loaded on the first team search, not when `ctx serve` starts.
import { CtxError } from "../errors.ts";
import type { TeamClient, TeamConnectOptions } from "./connect.ts";

const IDLE_MS = 60_000;

export class KeptTeamConnection {
  #held: { key: string; client: TeamClient; idle: NodeJS.Timeout | null } | null = null;
  readonly #idleMs: number;

  constructor(idleMs = IDLE_MS) {
    this.#idleMs = idleMs;
  }

  /** Runs `work` on the kept connection (connecting first when there is none, or the URL or password changed). */
  async run<T>(url: string, options: TeamConnectOptions, work: (client: TeamClient) => Promise<T>): Promise<T> {
    const env = options.env ?? process.env;
    const { connectTeam, teamError, teamTimeoutError } = await import("./connect.ts");
    const key = [
      url,
      env.PGPASSWORD,
      env.PGPASSFILE,
      options.queryTimeoutMs,
      options.lockTimeoutMs,
      options.statementTimeoutMs,
    ]
      .map((part) => part ?? "")
      .join("\n");
    if (this.#held !== null && this.#held.key !== key) await this.close();
    if (this.#held === null) this.#held = { key, client: await connectTeam(url, options), idle: null };
    const held = this.#held;
    if (held.idle !== null) clearTimeout(held.idle);
    try {
      return await work(held.client);
    } catch (error) {
      await this.close();
      if (error instanceof CtxError) throw error;
      throw (
        teamTimeoutError(error, url, options) ?? teamError("TEAM_REFUSED", "the team server refused", error, url, env)
      );
    } finally {
      if (this.#held === held) {
        held.idle = setTimeout(() => void this.close(), this.#idleMs);
        held.idle.unref();
      }
    }
  }

  async close(): Promise<void> {
    const held = this.#held;
    this.#held = null;
    if (held === null) return;
    if (held.idle !== null) clearTimeout(held.idle);
    await held.client.end().catch(() => {});
  }
}
