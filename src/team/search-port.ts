// Fork detection's port to the team (core/search/team-candidates.ts TeamCandidatesPort), built by the shells that
// search: `ctx search` and `ctx serve` (with its kept connection). This module loads nothing of the team's: the fetch,
// and the PostgreSQL client with it, is loaded on the first search that asks for the team.
import type { Config } from "../config/schema.ts";
import type { TeamCandidatesPort } from "../core/search/team-candidates.ts";
import type { KeptTeamConnection } from "./kept-connection.ts";

/** The team's candidates for `config`'s joined team, on `kept` when a long-lived process keeps a connection. */
export function teamCandidatesPort(
  config: Config,
  env: NodeJS.ProcessEnv,
  kept?: KeptTeamConnection,
): TeamCandidatesPort {
  return (request) =>
    import("./search-fetch.ts").then(({ startTeamFetch }) => startTeamFetch(config, env, request, kept));
}
