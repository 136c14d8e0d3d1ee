// Where a fork-detect search looks (`search.scope`, `ctx search --team`, ctx_fork_detect's `scope`) and the team
// side of it: the server's candidates fetched while the local index is searched, bounded by team.connectTimeoutMs
// as a whole, and any failure turned into one notice (the local results still come back). A search that asks for
// the team without one joined is an error with the way to join.
import type { Config } from "../config/schema.ts";
import type { SearchFilters } from "../core/search/model.ts";
import { hideSecrets } from "../core/team/server-url.ts";
import { CtxError, describeError } from "../errors.ts";
import { knownPasswords } from "../team/connect.ts";
import { searchTeam, type TeamCandidates } from "../team/search.ts";
import { CHUNK_CANDIDATES } from "./search-sessions.ts";

export const SEARCH_SCOPES = ["local", "team", "all"] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

/** A scope named by a person or a model: one of SEARCH_SCOPES, else a USAGE error that lists them. */
export function parseSearchScope(value: string): SearchScope {
  const scope = SEARCH_SCOPES.find((known) => known === value.trim().toLowerCase());
  if (scope === undefined) {
    throw new CtxError("USAGE", `scope must be local, team or all, not ${JSON.stringify(value)}`, {
      hint: "local: this machine's index; team: the team server; all: both, ranked together",
    });
  }
  return scope;
}

/** The joined team's URL and name, or TEAM_REFUSED saying how to join. */
export function requireJoinedTeam(config: Config, scope: SearchScope): { url: string; name: string } {
  const { url, name } = config.team;
  if (url.trim() === "" || name.trim() === "") {
    throw new CtxError("USAGE", `a ${scope} search needs a team, and this machine has joined none`, {
      hint: "join one with `ctx team join <postgresql-url> --team <name>` (docs/team.md), or search with scope local",
    });
  }
  return { url, name };
}

export interface TeamFetch {
  candidates: TeamCandidates | null;
  /** One line on why the team's results are missing; null when they came. */
  notice: string | null;
}

/**
 * Starts fetching the team's candidates; never rejects. Whatever goes wrong (unreachable, refused, slower than
 * team.connectTimeoutMs in all) resolves to no candidates and one notice whose text carries no password.
 */
export function startTeamFetch(
  config: Config,
  env: NodeJS.ProcessEnv,
  query: string,
  filters: SearchFilters,
  projectContains: string | undefined,
): Promise<TeamFetch> {
  const { url, name } = requireJoinedTeam(config, "team");
  const limitMs = config.team.connectTimeoutMs;
  const work = searchTeam(url, { connectTimeoutMs: limitMs, env }, name, {
    query,
    limit: CHUNK_CANDIDATES,
    filters: {
      ...(filters.since === undefined ? {} : { since: filters.since }),
      ...(filters.until === undefined ? {} : { until: filters.until }),
    },
    ...(projectContains === undefined ? {} : { projectContains }),
  }).then(
    (candidates): TeamFetch => ({ candidates, notice: null }),
    (error: unknown): TeamFetch => ({
      candidates: null,
      notice: `team results left out: ${hideSecrets(describeError(error), knownPasswords(url, env))}`,
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<TeamFetch>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          candidates: null,
          notice: `team results left out: the team server did not answer within ${limitMs} ms (team.connectTimeoutMs)`,
        }),
      limitMs,
    );
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
