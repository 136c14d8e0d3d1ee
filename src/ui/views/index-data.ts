// The index page's data (docs/ui.md "Index and team"): `ctx stats` (search/index-stats.ts, its forks section from
// search/fork-history.ts) and the team as this machine knows it (team/status.ts readLocalTeamStatus: shared
// projects, the outbox, the last push, sessions set aside), with no connection to the team server, so the page
// never waits on the network. Each part is read on its own (./part.tsx).
import type { Config } from "../../config/schema.ts";
import type { IndexStatsReport } from "../../core/search/index-stats-schema.ts";
import { loadForkHistory } from "../../search/fork-history.ts";
import type { ForkStats } from "../../search/fork-history-schema.ts";
import { readIndexStatsReport } from "../../search/index-stats.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { readLocalTeamStatus, type TeamStatus } from "../../team/status.ts";
import { type Part, part } from "./part.tsx";

export interface IndexPageData {
  stats: Part<IndexStatsReport>;
  forks: Part<ForkStats>;
  team: Part<TeamStatus>;
}

export async function loadIndexPage(
  env: NodeJS.ProcessEnv,
  projectRoot: string,
  config: Config,
): Promise<IndexPageData> {
  const [stats, forks, team] = await Promise.all([
    // The integrity check reads the whole file (about a second on 10,000 sessions): `ctx stats` runs it, the page
    // does not wait for it.
    part(async () => readIndexStatsReport(resolveIndexPath(env), env, { checkIntegrity: false })),
    part(async () => (await loadForkHistory({ env, projectRoot })).stats),
    part(() => readLocalTeamStatus(config.team, env)),
  ]);
  return { stats, forks, team };
}
