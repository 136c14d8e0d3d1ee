// A PostgreSQL cluster for one team test file (pg-cluster.ts) and the member connections its tests open, all closed
// after the file's tests. Apart from pg-cluster.ts because it registers vitest's afterAll, and the benchmarks that
// start a cluster import pg-cluster.ts outside vitest.
import { afterAll } from "vitest";
import { connectTeam, type TeamClient } from "../../src/team/connect.ts";
import { type PgCluster, type PgClusterResult, startPgCluster } from "./pg-cluster.ts";

export interface TeamTestCluster {
  started: PgClusterResult;
  /** null where PostgreSQL cannot run (`started` says why): the file's tests are skipped. */
  cluster: PgCluster | null;
  /** Connects to database `library` as `role` (password `<role>-pw`); the connection is closed after the tests. */
  connectAs: (role: string) => Promise<TeamClient>;
}

/** Starts the cluster; call at the top of a test file, where vitest collects the afterAll that stops it. */
export async function startTeamTestCluster(): Promise<TeamTestCluster> {
  const started = await startPgCluster();
  const cluster = "cluster" in started ? started.cluster : null;
  const clients: TeamClient[] = [];
  afterAll(async () => {
    for (const client of clients) await client.end().catch(() => {});
    await cluster?.stop();
  });
  const connectAs = async (role: string): Promise<TeamClient> => {
    if (cluster === null) throw new Error("no PostgreSQL cluster to connect to");
    const client = await connectTeam(cluster.url(role, `${role}-pw`, "library"), { connectTimeoutMs: 5_000 });
    clients.push(client);
    return client;
  };
  return { started, cluster, connectAs };
}
