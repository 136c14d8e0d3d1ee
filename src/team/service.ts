// The team operations the CLI runs, each on its own connection: migrate (init), add a member, check a joining
// member, and the status of a joined one. Results name the server without its password; any server error becomes a
// CtxError with the password taken out (./connect.ts). The next parts (push, search, fork) connect the same way:
// `withTeamClient(url, { connectTimeoutMs, env }, work)`.
import { TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
import { describeTeamUrl } from "../core/team/server-url.ts";
import { type TeamConnectOptions, withTeamClient } from "./connect.ts";
import { checkMembership, countTeamRows, memberHandle, type TeamMembership } from "./inspect.ts";
import { type AddMemberInput, addTeamMember, type TeamMemberResult } from "./members.ts";
import { chunksRewrite, migrateTeamSchema, readSchemaVersion, type TeamMigrateResult } from "./migrate.ts";
import { findWritableSchemas, type WritableSchema } from "./writable-schemas.ts";

export async function migrateTeam(url: string, options: TeamConnectOptions): Promise<TeamMigrateResult> {
  const result = await withTeamClient(url, options, async (client) => {
    const migrated = await migrateTeamSchema(client);
    return {
      ...migrated,
      writableSchemas: await findWritableSchemas(client),
      rewriteChunks: await chunksRewrite(client, migrated.from, migrated.to),
    };
  });
  return { server: describeTeamUrl(url), ...result };
}

export async function addMember(
  url: string,
  options: TeamConnectOptions,
  input: AddMemberInput,
): Promise<TeamMemberResult> {
  const result = await withTeamClient(url, options, (client) => addTeamMember(client, input));
  return { server: describeTeamUrl(url), ...result };
}

export async function joinCheck(url: string, options: TeamConnectOptions, team: string): Promise<TeamMembership> {
  const result = await withTeamClient(url, options, (client) => checkMembership(client, team));
  return { server: describeTeamUrl(url), ...result };
}

export interface TeamStatusFound {
  joined: true;
  server: string;
  team: string;
  reachable: true;
  error: null;
  role: string;
  handle: string | null;
  schemaVersion: number | null;
  expectedSchemaVersion: number;
  counts: Awaited<ReturnType<typeof countTeamRows>>;
  writableSchemas: WritableSchema[];
}

/** What the server says about this member and its team; throws (password-free) when it cannot be reached. */
export async function teamStatus(url: string, options: TeamConnectOptions, team: string): Promise<TeamStatusFound> {
  return withTeamClient(url, options, async (client) => {
    const role = (await client.query<{ role: string }>("SELECT current_user AS role")).rows[0]?.role ?? "";
    const schemaVersion = await readSchemaVersion(client);
    const current = schemaVersion === TEAM_SCHEMA_VERSION;
    return {
      joined: true,
      server: describeTeamUrl(url),
      team,
      reachable: true,
      error: null,
      role,
      handle: current ? await memberHandle(client, team) : null,
      schemaVersion,
      expectedSchemaVersion: TEAM_SCHEMA_VERSION,
      counts: current ? await countTeamRows(client, team) : null,
      writableSchemas: await findWritableSchemas(client),
    };
  });
}
