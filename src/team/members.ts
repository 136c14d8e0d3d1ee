// `ctx team add-member` (run by the administrator): the team is created if it is new, the role becomes its member
// under a handle (the name teammates see), and the role gets the table rights a member needs; row-level security
// then limits it to its teams' rows and its own writes. The role itself is created beforehand (CREATE ROLE or a
// managed provider's console): ctx never handles a member's password.
import * as z from "zod/mini";
import { memberGrantStatements } from "../core/team/migrations.ts";
import { CtxError } from "../errors.ts";
import type { TeamClient } from "./connect.ts";
import { readSchemaVersion, requireCurrentSchema } from "./migrate.ts";

export const TeamMemberResultSchema = z.object({
  server: z.string(),
  team: z.string(),
  teamCreated: z.boolean(),
  role: z.string(),
  handle: z.string(),
  /** False when the role was already a member (its handle may have changed). */
  added: z.boolean(),
  /** A superuser or BYPASSRLS role sees every team's rows whatever the policies say. */
  bypassesRowSecurity: z.boolean(),
});
export type TeamMemberResult = z.infer<typeof TeamMemberResultSchema>;

export interface AddMemberInput {
  role: string;
  team: string;
  handle?: string;
}

/** Adds (or re-grants) a member; the whole change is one transaction. */
export async function addTeamMember(
  client: TeamClient,
  input: AddMemberInput,
): Promise<Omit<TeamMemberResult, "server">> {
  const team = input.team.trim();
  const handle = (input.handle ?? input.role).trim();
  if (team === "" || team.length > 100) throw new CtxError("USAGE", "a team name is 1 to 100 characters");
  if (handle === "" || handle.length > 100) throw new CtxError("USAGE", "a handle is 1 to 100 characters");
  requireCurrentSchema(await readSchemaVersion(client));
  const role = await client.query<{ bypass: boolean }>(
    "SELECT rolsuper OR rolbypassrls AS bypass FROM pg_catalog.pg_roles WHERE rolname = $1::pg_catalog.name",
    [input.role],
  );
  const found = role.rows[0];
  if (found === undefined) {
    throw new CtxError("TEAM_REFUSED", `the server has no role named ${JSON.stringify(input.role)}`, {
      hint: "create it first (CREATE ROLE <name> LOGIN PASSWORD '…', or your provider's console), then run this again",
    });
  }
  await client.query("BEGIN");
  try {
    const created = await client.query<{ id: string }>(
      "INSERT INTO ctx_team.teams (name) VALUES ($1::text) ON CONFLICT (name) DO NOTHING RETURNING id",
      [team],
    );
    const teamId =
      created.rows[0]?.id ??
      (await client.query<{ id: string }>("SELECT id FROM ctx_team.teams WHERE name = $1::text", [team])).rows[0]?.id;
    const member = await client.query<{ inserted: boolean }>(
      `INSERT INTO ctx_team.members (team_id, role_name, handle) VALUES ($1::bigint, $2::pg_catalog.name, $3::text)
       ON CONFLICT (team_id, role_name) DO UPDATE SET handle = EXCLUDED.handle
       RETURNING (xmax = 0) AS inserted`,
      [teamId, input.role, handle],
    );
    for (const statement of memberGrantStatements(client.escapeIdentifier(input.role))) {
      await client.query(statement);
    }
    await client.query("COMMIT");
    return {
      team,
      teamCreated: created.rows.length > 0,
      role: input.role,
      handle,
      added: member.rows[0]?.inserted === true,
      bypassesRowSecurity: found.bypass,
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    if ((error as { code?: unknown }).code === "23505") {
      throw new CtxError("USAGE", `the handle ${JSON.stringify(handle)} is taken in team ${JSON.stringify(team)}`, {
        hint: "pick another with --handle",
      });
    }
    throw error;
  }
}
