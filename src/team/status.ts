// What `ctx team status` reports (its --json schema) and its assembly: the server and this member as the server sees
// them (or why it could not be asked, password removed), and what this machine shares and has queued, read locally
// whether or not the server answers. The PostgreSQL client, the index and ctx's team state are loaded only when read.
import * as z from "zod/mini";
import type { Config } from "../config/schema.ts";
import { TeamCountsSchema } from "../core/team/counts.ts";
import { TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
import { describeTeamUrl } from "../core/team/server-url.ts";
import { describeError } from "../errors.ts";
import { resolveIndexPath } from "../search/paths.ts";
import { WritableSchemaSchema } from "./writable-schemas.ts";

export const TeamStatusSchema = z.object({
  /** Whether this machine has joined a team (team.url and team.name set). */
  joined: z.boolean(),
  server: z.nullable(z.string()),
  team: z.nullable(z.string()),
  reachable: z.nullable(z.boolean()),
  /** Why the server could not be used, password removed. */
  error: z.nullable(z.string()),
  role: z.nullable(z.string()),
  handle: z.nullable(z.string()),
  schemaVersion: z.nullable(z.number()),
  expectedSchemaVersion: z.number(),
  counts: z.nullable(TeamCountsSchema),
  /** Schemas on a default search_path where others may create (empty when unknown): warned about on stderr. */
  writableSchemas: z.array(WritableSchemaSchema),
  /** What this machine shares and has queued (read locally: known whether or not the server answers). */
  sharing: z.object({
    projects: z.array(z.object({ remoteUrl: z.string(), repoPath: z.string(), roots: z.array(z.string()) })),
    outbox: z.object({ sessions: z.number(), items: z.number(), oldestAt: z.nullable(z.number()) }),
    lastPushAt: z.nullable(z.number()),
    lastError: z.nullable(z.string()),
    /** Sessions the server refused for their own data, held back with its reason (one line, no password). */
    setAside: z.array(z.object({ sessionId: z.string(), reason: z.string(), at: z.number() })),
  }),
});
export type TeamStatus = z.infer<typeof TeamStatusSchema>;
export type TeamSharing = TeamStatus["sharing"];

function emptyStatus(server: string | null, team: string | null, sharing: TeamSharing): TeamStatus {
  return {
    sharing,
    joined: false,
    server,
    team,
    reachable: null,
    error: null,
    role: null,
    handle: null,
    schemaVersion: null,
    expectedSchemaVersion: TEAM_SCHEMA_VERSION,
    counts: null,
    writableSchemas: [],
  };
}

/** The status of the team this machine joined (`settings`: config.team); nothing is asked of a server before joining. */
export async function readTeamStatus(settings: Config["team"], env: NodeJS.ProcessEnv): Promise<TeamStatus> {
  const sharing = await readSharing(env);
  if (settings.url === "" || settings.name === "") {
    return emptyStatus(settings.url === "" ? null : describeTeamUrl(settings.url), settings.name || null, sharing);
  }
  const { teamStatus } = await import("./service.ts");
  const { teamConnectOptions } = await import("./connect.ts");
  return teamStatus(settings.url, teamConnectOptions(settings, env), settings.name).then(
    (found) => ({ ...found, sharing }),
    (error: unknown) => ({
      ...emptyStatus(describeTeamUrl(settings.url), settings.name, sharing),
      joined: true,
      reachable: false,
      error: describeError(error),
    }),
  );
}

/**
 * The status as this machine knows it, asking no server: whether it joined, the server (password removed) and the
 * team, and what it shares and has queued (the ui's index page: a page load never waits on the network).
 */
export async function readLocalTeamStatus(settings: Config["team"], env: NodeJS.ProcessEnv): Promise<TeamStatus> {
  const status = emptyStatus(
    settings.url === "" ? null : describeTeamUrl(settings.url),
    settings.name || null,
    await readSharing(env),
  );
  return { ...status, joined: settings.url !== "" && settings.name !== "" };
}

async function readSharing(env: NodeJS.ProcessEnv): Promise<TeamSharing> {
  const { readSharedProjects, readPushState } = await import("../store/team/team-state.ts");
  const { readOutboxDepth } = await import("./outbox-status.ts");
  const { readSetAsideSessions } = await import("./outbox-status.ts");
  const [projects, state] = await Promise.all([readSharedProjects(env), readPushState(env)]);
  return {
    projects: projects.map((p) => ({ remoteUrl: p.remoteUrl, repoPath: p.repoPath, roots: p.roots })),
    outbox: readOutboxDepth(resolveIndexPath(env)),
    lastPushAt: state?.lastPushAt ?? null,
    lastError: state?.lastError ?? null,
    setAside: readSetAsideSessions(resolveIndexPath(env)),
  };
}
