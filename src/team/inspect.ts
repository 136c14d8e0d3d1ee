// What a member's connection finds on the team server: who the server says we are, the schema version, the team and
// our handle in it, our table rights (`ctx team join` checks them all), and the rows we can see (`ctx team status`).
// Everything is read through the member's own role, so row-level security shapes the counts as it shapes search.
import * as z from "zod/mini";
import type { TeamCounts } from "../core/team/counts.ts";
import { MEMBER_READABLE_TABLES, MEMBER_WRITABLE_TABLES, TEAM_SCHEMA_VERSION } from "../core/team/migrations.ts";
import { CtxError } from "../errors.ts";
import type { TeamClient } from "./connect.ts";
import { readSchemaVersion, requireCurrentSchema } from "./migrate.ts";

export const TeamMembershipSchema = z.object({
  server: z.string(),
  team: z.string(),
  role: z.string(),
  handle: z.string(),
  schemaVersion: z.number(),
  expectedSchemaVersion: z.number(),
  /** A superuser or BYPASSRLS role reads every team's rows: fine for the administrator, wrong for a member. */
  bypassesRowSecurity: z.boolean(),
  rights: z.object({ read: z.array(z.string()), write: z.array(z.string()) }),
});
export type TeamMembership = z.infer<typeof TeamMembershipSchema>;

/** The caller's membership of a team: the team's id (bigint, as text) and the caller's handle in it. */
export interface TeamRow {
  id: string;
  handle: string;
}

/**
 * Checks what `ctx team join` promises: the schema is current, the role is a member of `team`, and it holds the
 * rights a member needs. Throws TEAM_REFUSED saying which is missing and who can fix it.
 */
export async function checkMembership(client: TeamClient, team: string): Promise<Omit<TeamMembership, "server">> {
  const who = await client.query<{ role: string; bypass: boolean | null }>(
    `SELECT current_user AS role,
            (SELECT rolsuper OR rolbypassrls FROM pg_catalog.pg_roles WHERE rolname = current_user) AS bypass`,
  );
  const role = who.rows[0]?.role ?? "";
  const notMember = (why: string) =>
    new CtxError("TEAM_REFUSED", `role ${JSON.stringify(role)} is not a member of team ${JSON.stringify(team)}${why}`, {
      hint: `the administrator adds it with \`ctx team add-member ${role} --team ${team}\``,
    });
  // A role no administrator added has no rights on ctx's schema at all: that is the same answer, said plainly.
  const version = await readSchemaVersion(client).catch((error: unknown) => {
    if (error instanceof CtxError && error.code === "TEAM_REFUSED") throw notMember(" (it may not read ctx's schema)");
    throw error;
  });
  const schemaVersion = requireCurrentSchema(version);
  const member = await findMembership(client, team);
  if (member === null) throw notMember("");
  const rights = await readRights(client);
  const missing = [
    ...MEMBER_READABLE_TABLES.filter((t) => !rights.read.includes(t)).map((t) => `read ${t}`),
    ...MEMBER_WRITABLE_TABLES.filter((t) => !rights.write.includes(t)).map((t) => `write ${t}`),
  ];
  if (missing.length > 0) {
    throw new CtxError("TEAM_REFUSED", `role ${JSON.stringify(role)} may not ${missing.join(", ")}`, {
      hint: `the administrator grants them with \`ctx team add-member ${role} --team ${team}\``,
    });
  }
  return {
    team,
    role,
    handle: member.handle,
    schemaVersion,
    expectedSchemaVersion: TEAM_SCHEMA_VERSION,
    bypassesRowSecurity: who.rows[0]?.bypass === true,
    rights,
  };
}

/**
 * The caller's membership of `team`, or TEAM_REFUSED: the one check every team operation makes before it reads or
 * writes the team's rows (push, search, share, fork). `ctx team join` checks more (checkMembership).
 */
export async function requireMembership(client: TeamClient, team: string): Promise<TeamRow> {
  const member = await findMembership(client, team);
  if (member === null) {
    throw new CtxError("TEAM_REFUSED", `this role is not a member of team ${JSON.stringify(team)}`, {
      hint: "`ctx team status` shows what the server says; the administrator adds members with `ctx team add-member`",
    });
  }
  return member;
}

/** The caller's membership of `team` by name, or null (not a member, or no such team: the same to a member). */
export async function findMembership(client: TeamClient, team: string): Promise<TeamRow | null> {
  const { rows } = await client.query<TeamRow>(
    `SELECT t.id, m.handle FROM ctx_team.members m JOIN ctx_team.teams t ON t.id = m.team_id
     WHERE m.role_name = current_user AND t.name = $1::text`,
    [team],
  );
  return rows[0] ?? null;
}

async function readRights(client: TeamClient): Promise<{ read: string[]; write: string[] }> {
  const read: string[] = [];
  const write: string[] = [];
  for (const table of [...MEMBER_READABLE_TABLES, ...MEMBER_WRITABLE_TABLES]) {
    const { rows } = await client.query<{ r: boolean; w: boolean }>(
      `SELECT pg_catalog.has_table_privilege($1::text, 'SELECT'::text) AS r,
              pg_catalog.has_table_privilege($1::text, 'INSERT'::text)
                AND pg_catalog.has_table_privilege($1::text, 'UPDATE'::text)
                AND pg_catalog.has_table_privilege($1::text, 'DELETE'::text) AS w`,
      [`ctx_team.${table}`],
    );
    if (rows[0]?.r) read.push(table);
    if (rows[0]?.w && (MEMBER_WRITABLE_TABLES as readonly string[]).includes(table)) write.push(table);
  }
  return { read, write };
}

/** The rows of `team` this member's role can see (row-level security decides), and how many are its own. */
export async function countTeamRows(client: TeamClient, team: string): Promise<TeamCounts | null> {
  const member = await findMembership(client, team);
  if (member === null) return null;
  const { rows } = await client.query<Record<keyof TeamCounts, string>>(
    `SELECT (SELECT pg_catalog.count(*) FROM ctx_team.members WHERE team_id = $1::bigint) AS members,
            (SELECT pg_catalog.count(*) FROM (SELECT DISTINCT remote_url, repo_path FROM ctx_team.projects
              WHERE team_id = $1::bigint) identities) AS projects,
            (SELECT pg_catalog.count(*) FROM ctx_team.sessions WHERE team_id = $1::bigint) AS sessions,
            (SELECT pg_catalog.count(*) FROM ctx_team.chunks WHERE team_id = $1::bigint) AS chunks,
            (SELECT pg_catalog.count(*) FROM ctx_team.transcripts WHERE team_id = $1::bigint) AS transcripts,
            (SELECT pg_catalog.count(*) FROM ctx_team.sessions WHERE team_id = $1::bigint AND author = current_user)
              AS "mySessions"`,
    [member.id],
  );
  const row = rows[0];
  const count = (key: keyof TeamCounts) => Number(row?.[key] ?? 0);
  return {
    members: count("members"),
    projects: count("projects"),
    sessions: count("sessions"),
    chunks: count("chunks"),
    transcripts: count("transcripts"),
    mySessions: count("mySessions"),
  };
}

/** The member's handle in `team`, or null. */
export async function memberHandle(client: TeamClient, team: string): Promise<string | null> {
  return (await findMembership(client, team))?.handle ?? null;
}
