// What a search offered, into the fork log (docs/forks.md): the query (redacted, cut) and the sessions with the
// point their fork-at command cuts them at. Never fails the search it follows: a log that cannot be written is
// one warning on stderr.
import { offerRecord } from "../core/library/fork-offer.ts";
import type { RankedSession } from "../core/search/model.ts";
import { appendForkLog } from "../store/library/fork-log.ts";

export async function recordForkOffer(
  env: NodeJS.ProcessEnv,
  at: number,
  via: "cli" | "mcp",
  query: string,
  ranked: readonly RankedSession[],
  warn: (message: string) => void,
  redact: ((text: string) => string) | null,
): Promise<void> {
  // Team sessions are forked through `ctx fork`, which records its own run.
  const sessions = ranked
    .filter((entry) => entry.team === undefined)
    .map((entry) => ({ sessionId: entry.session.id, point: entry.bestChunk.lastUuid ?? null }));
  try {
    await appendForkLog(env, offerRecord(at, via, query, sessions, redact));
  } catch (error) {
    warn(`fork history: could not record this search: ${(error as Error).message}`);
  }
}
