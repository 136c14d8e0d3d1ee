// The team side of a fork-detect search: the server's candidates fetched while the local index is searched,
// bounded by team.connectTimeoutMs as a whole, and any failure turned into one notice (the local results still come
// back). Loaded only for a search that asks for the team (it brings in the PostgreSQL client): fork detection reaches
// it through its port (./search-port.ts).
import type { Config } from "../config/schema.ts";
import type { TeamCandidatesRequest, TeamFetch } from "../core/search/team-candidates.ts";
import { requireJoinedTeam } from "../search/search-scope.ts";
import { CHUNK_CANDIDATES } from "../search/search-sessions.ts";
import { describeTeamFailure } from "./connect.ts";
import type { KeptTeamConnection } from "./kept-connection.ts";
import { searchTeam } from "./search.ts";

/**
 * Starts fetching the team's candidates; never rejects. Whatever goes wrong (unreachable, refused, slower than
 * team.connectTimeoutMs in all) resolves to no candidates and one notice whose text carries no password.
 */
export function startTeamFetch(
  config: Config,
  env: NodeJS.ProcessEnv,
  request: TeamCandidatesRequest,
  kept?: KeptTeamConnection,
): Promise<TeamFetch> {
  const { url, name } = requireJoinedTeam(config, "team");
  const limitMs = config.team.connectTimeoutMs;
  const { query, filters, projectContains, weighing, onAsked } = request;
  const work = searchTeam(
    url,
    {
      connectTimeoutMs: limitMs,
      lockTimeoutMs: config.team.lockTimeoutMs,
      statementTimeoutMs: config.team.statementTimeoutMs,
      env,
    },
    name,
    {
      query,
      limit: CHUNK_CANDIDATES,
      filters: {
        ...(filters.since === undefined ? {} : { since: filters.since }),
        ...(filters.until === undefined ? {} : { until: filters.until }),
      },
      ...(projectContains === undefined ? {} : { projectContains }),
      ...(weighing === undefined ? {} : { weighing }),
      ...(onAsked === undefined ? {} : { onAsked }),
    },
    kept,
  ).then(
    (candidates): TeamFetch => ({ candidates, notice: null }),
    (error: unknown): TeamFetch => ({
      candidates: null,
      notice: `team results left out: ${describeTeamFailure(error, url, env)}`,
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  let late: NodeJS.Immediate | undefined;
  const deadline = new Promise<TeamFetch>((resolve) => {
    // The deadline settles after the event loop's next look at the sockets (setImmediate runs after its poll phase):
    // when the local search held the thread past it, an answer that came meanwhile is read first, not thrown away as
    // "did not answer" because the timer's turn comes before the sockets'.
    timer = setTimeout(() => {
      late = setImmediate(() =>
        resolve({
          candidates: null,
          notice: `team results left out: the team server did not answer within ${limitMs} ms (team.connectTimeoutMs)`,
        }),
      );
      late.unref();
    }, limitMs);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
    if (late !== undefined) clearImmediate(late);
  });
}
