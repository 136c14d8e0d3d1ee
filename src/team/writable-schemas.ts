// The schemas where a role other than their owner may create objects, among those a session's search_path would name
// if ctx did not pin it (`public`, a schema named after a role for "$user", and any schema a database's or role's own
// search_path setting names). ctx's sessions resolve nothing there (src/team/connect.ts TEAM_SEARCH_PATH), but the
// administrator's and members' other tools do: PostgreSQL 14 and older let every role create in `public`
// (CVE-2018-1058), so `ctx team init`, `migrate` and `status` name each such schema and the fix.
import * as z from "zod/mini";
import { sanitizeLogLine } from "../terminal-text.ts";
import type { TeamClient } from "./connect.ts";

export const WritableSchemaSchema = z.object({
  schema: z.string(),
  /** The roles, other than the owner, that may create in it (`PUBLIC`: every role). */
  creators: z.array(z.string()),
});
export type WritableSchema = z.infer<typeof WritableSchemaSchema>;

// pg_namespace.nspacl is NULL while the schema has its default rights (the owner's only). A superuser grantee is left
// out: it may create anywhere whatever the grant says.
const WRITABLE_SCHEMAS_SQL = `
WITH path_names AS (
  SELECT 'public'::text AS name
  UNION
  SELECT pg_catalog.btrim(part, ' "'::text)
    FROM pg_catalog.pg_db_role_setting s
   CROSS JOIN LATERAL pg_catalog.unnest(s.setconfig) AS c(setting)
   CROSS JOIN LATERAL pg_catalog.regexp_split_to_table(
           pg_catalog.substr(c.setting, pg_catalog.length('search_path=') + 1), ','::text) AS part
   WHERE pg_catalog.starts_with(c.setting, 'search_path='::text)
     AND s.setdatabase IN (0::pg_catalog.oid,
           (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database()))
)
SELECT n.nspname::text AS schema,
       CASE WHEN a.grantee = 0::pg_catalog.oid THEN 'PUBLIC' ELSE r.rolname::text END AS creator
  FROM pg_catalog.pg_namespace n
 CROSS JOIN LATERAL pg_catalog.aclexplode(coalesce(n.nspacl, pg_catalog.acldefault('n'::"char", n.nspowner))) a
  LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee
 WHERE a.privilege_type = 'CREATE'::text
   AND a.grantee <> n.nspowner
   AND NOT coalesce(r.rolsuper, false)
   AND (n.nspname::text IN (SELECT name FROM path_names)
        OR n.nspname IN (SELECT rr.rolname FROM pg_catalog.pg_roles rr))
 ORDER BY 1, 2`;

/** The schemas on a default path where someone other than the owner may create (empty: nothing to warn about). */
export async function findWritableSchemas(client: TeamClient): Promise<WritableSchema[]> {
  const { rows } = await client.query<{ schema: string; creator: string | null }>(WRITABLE_SCHEMAS_SQL);
  const bySchema = new Map<string, Set<string>>();
  for (const row of rows) {
    const creators = bySchema.get(row.schema) ?? new Set<string>();
    creators.add(row.creator ?? "(a dropped role)");
    bySchema.set(row.schema, creators);
  }
  return [...bySchema].map(([schema, creators]) => ({ schema, creators: [...creators] }));
}

// Always quoted, as node-postgres's escapeIdentifier quotes (a reserved word such as `user` needs it; the CLI prints
// this without loading pg). The line is then made one line: the names are the server's text.
const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One warning line per schema, naming who may create there and the statement that fixes it. */
export function writableSchemaWarnings(found: readonly WritableSchema[]): string[] {
  return found.map(({ schema, creators }) => {
    const who = creators.map((c) => (c === "PUBLIC" ? "every role (PUBLIC)" : c)).join(", ");
    const from = creators.map((c) => (c === "PUBLIC" ? "PUBLIC" : quoteIdentifier(c))).join(", ");
    return sanitizeLogLine(
      `warning: ${who} may create objects in schema ${schema}, which default search_paths name: a function ` +
        "planted there runs as whoever calls it unqualified (ctx pins its own sessions' path); the administrator fixes " +
        `it with \`REVOKE CREATE ON SCHEMA ${quoteIdentifier(schema)} FROM ${from}\``,
    );
  });
}
