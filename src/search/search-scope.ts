// Where a fork-detect search looks: `search.scope`, `ctx search --team | --scope`, ctx_fork_detect's `scope`.
// `local` is this machine's index; `team` and `all` also ask the team server (src/team/search-fetch.ts), which needs a joined
// team: without one, that is an error with the way to join.
import type { Config } from "../config/schema.ts";
import { CtxError } from "../errors.ts";

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
