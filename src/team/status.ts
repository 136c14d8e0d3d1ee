// What `ctx team status` reports (its --json schema): the server and this member as the server sees them, and what
// this machine shares and has queued.
import * as z from "zod/mini";
import { TeamCountsSchema } from "../core/team/counts.ts";
import { TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
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

export function emptyStatus(server: string | null, team: string | null, sharing: TeamSharing): TeamStatus {
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
