// Creates and upgrades ctx's schema on the team server (`ctx team init`, `ctx team migrate`): every pending
// migration of core/team/migrations.ts in ONE transaction, after a transaction-level advisory lock, so two
// administrators running it at once queue and the second finds nothing to do; a failure leaves the server as it was.
// Afterwards every member's table rights are granted again, so a table a migration added reaches them.
import * as z from "zod/mini";
import {
  MIGRATION_LOCK_KEY,
  memberGrantStatements,
  pendingMigrations,
  SCHEMA_VERSION_TABLE_SQL,
  TEAM_MIGRATIONS,
  TEAM_SCHEMA_VERSION,
  type TeamMigration,
} from "../core/team/migrations.ts";
import { CtxError } from "../errors.ts";
import { sqlState, type TeamClient } from "./connect.ts";
import { countUncountedChunks } from "./term-stats.ts";
import { WritableSchemaSchema } from "./writable-schemas.ts";

/** The migration that added the team's term statistics (core/team/migrations.ts TERM_STATISTICS). */
const TERM_STATISTICS_VERSION = 5;
/** The migration that keeps each chunk's term counts (term_counts): the fill writes them too from then on. */
const TERM_COUNTS_VERSION = 9;

export const TeamMigrateResultSchema = z.object({
  server: z.string(),
  from: z.number(),
  to: z.number(),
  applied: z.array(z.object({ version: z.number(), name: z.string() })),
  /** Schemas on a default search_path where others may create (src/team/writable-schemas.ts): each is warned about. */
  writableSchemas: z.array(WritableSchemaSchema),
  /**
   * When this run brought a server already holding chunks to the layout of migration 15 (each chunk's tsvector in its
   * row), the statement that moves the chunks pushed before to it (they keep theirs in TOAST until then); else null.
   */
  rewriteChunks: z.nullable(z.string()),
});
export type TeamMigrateResult = z.infer<typeof TeamMigrateResultSchema>;

/**
 * The schema version the server records; null when ctx's schema is not there. Throws TEAM_REFUSED when the role
 * may not read it (no rights on the schema).
 */
export async function readSchemaVersion(client: TeamClient): Promise<number | null> {
  try {
    const { rows } = await client.query<{ version: number | null }>(
      "SELECT pg_catalog.max(version) AS version FROM ctx_team.schema_version",
    );
    return rows[0]?.version ?? 0;
  } catch (error) {
    // 3F000: no such schema; 42P01: no such table.
    if (sqlState(error) === "3F000" || sqlState(error) === "42P01") return null;
    if (sqlState(error) === "42501") {
      throw new CtxError("TEAM_REFUSED", "this role may not read ctx's schema (ctx_team) on the team server", {
        hint: "ask the administrator to run `ctx team add-member <your role> --team <team>`",
      });
    }
    throw error;
  }
}

/** Applies what is pending (all of it on an empty database); running it again changes nothing. */
export async function migrateTeamSchema(
  client: TeamClient,
  migrations: readonly TeamMigration[] = TEAM_MIGRATIONS,
): Promise<Omit<TeamMigrateResult, "server" | "writableSchemas" | "rewriteChunks">> {
  const latest = migrations.at(-1)?.version ?? 0;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_catalog.pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
    await client.query(SCHEMA_VERSION_TABLE_SQL);
    const from = (await readSchemaVersion(client)) ?? 0;
    if (from > latest) {
      throw new CtxError(
        "TEAM_REFUSED",
        `the team server's schema is version ${from}, newer than this ctx knows (${latest})`,
        { hint: "update ctx on this machine; an older ctx must not change a newer schema" },
      );
    }
    const applied: { version: number; name: string }[] = [];
    for (const migration of pendingMigrations(from, migrations)) {
      await client.query(migration.sql);
      await client.query("INSERT INTO ctx_team.schema_version (version, name) VALUES ($1::integer, $2::text)", [
        migration.version,
        migration.name,
      ]);
      applied.push({ version: migration.version, name: migration.name });
    }
    if (applied.length > 0) await regrantMembers(client);
    await client.query("COMMIT");
    // Chunks pushed before migration 5 are counted into the team's statistics here, and those pushed before 9 given
    // their term counts, outside the migration's transaction (in batches that commit on their own; running migrate
    // again finishes a cut-off run).
    if (latest >= TERM_STATISTICS_VERSION)
      await countUncountedChunks(client, { counts: latest >= TERM_COUNTS_VERSION });
    return { from, to: Math.max(from, latest), applied };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** The migration after which a chunk's tsvector is written in its row (core/team/migrations.ts TSVECTOR_IN_ROW). */
const TSVECTOR_IN_ROW_VERSION = 15;

/** What the administrator runs once to move the chunks pushed before migration 15 to its layout (docs/team.md). */
const CHUNKS_REWRITE_SQL = "VACUUM (FULL, ANALYZE) ctx_team.chunks";

/**
 * The statement that moves the chunks a migration from `from` to `to` left in the older layout, or null: only when
 * the server held chunks before it reached version 15 (a new schema has none; a server already past 15 was told when
 * it got there).
 */
export async function chunksRewrite(client: TeamClient, from: number, to: number): Promise<string | null> {
  if (from === 0 || from >= TSVECTOR_IN_ROW_VERSION || to < TSVECTOR_IN_ROW_VERSION) return null;
  const { rows } = await client.query<{ any: boolean }>("SELECT EXISTS (SELECT FROM ctx_team.chunks) AS any");
  return rows[0]?.any === true ? CHUNKS_REWRITE_SQL : null;
}

/** Grants every member role that still exists the rights of the current schema. */
async function regrantMembers(client: TeamClient): Promise<void> {
  const { rows } = await client.query<{ role_name: string }>(
    `SELECT DISTINCT m.role_name FROM ctx_team.members m JOIN pg_catalog.pg_roles r ON r.rolname = m.role_name`,
  );
  for (const { role_name } of rows) {
    for (const statement of memberGrantStatements(client.escapeIdentifier(role_name))) await client.query(statement);
  }
}

/** Throws TEAM_REFUSED unless the server's schema is the version this ctx expects. */
export function requireCurrentSchema(version: number | null): number {
  if (version === null) {
    throw new CtxError("TEAM_REFUSED", "ctx's schema (ctx_team) is not on the team server", {
      hint: "the administrator creates it with `ctx team init <url>`",
    });
  }
  if (version < TEAM_SCHEMA_VERSION) {
    throw new CtxError(
      "TEAM_REFUSED",
      `the team server's schema is version ${version}; this ctx needs ${TEAM_SCHEMA_VERSION}`,
      { hint: "the administrator upgrades it with `ctx team migrate <url>`" },
    );
  }
  if (version > TEAM_SCHEMA_VERSION) {
    throw new CtxError(
      "TEAM_REFUSED",
      `the team server's schema is version ${version}, newer than this ctx knows (${TEAM_SCHEMA_VERSION})`,
      { hint: "update ctx on this machine" },
    );
  }
  return version;
}
