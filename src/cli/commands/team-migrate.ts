// `ctx team init <url>` and `ctx team migrate [<url>]` (administrator): ctx's schema on the server created or brought
// up to this ctx's version, with a warning when others may create objects on a default search_path.
import type { Command } from "commander";
import type { TeamMigrateResult } from "../../team/migrate.ts";
import { writableSchemaWarnings } from "../../team/writable-schemas.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamMigrateCommands(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { connectOptions, serverFrom, service } = kit;
  team
    .command("init")
    .description("create ctx's schema on the server (administrator; safe to run again)")
    .argument("<url>", "postgresql://<admin role>@<host>:<port>/<database>?sslmode=verify-full")
    .option("--json", "print JSON for scripts")
    .action(async (url: string, flags: JsonFlag) => {
      const { migrateTeam } = await service();
      printMigration(await migrateTeam(serverFrom(url), connectOptions()), flags);
    });

  team
    .command("migrate")
    .description("bring ctx's schema on the server up to this ctx's version (administrator)")
    .argument("[url]", "the server (default: team.url)")
    .option("--json", "print JSON for scripts")
    .action(async (url: string | undefined, flags: JsonFlag) => {
      const { migrateTeam } = await service();
      printMigration(await migrateTeam(serverFrom(url), connectOptions()), flags);
    });

  const printMigration = (result: TeamMigrateResult, flags: JsonFlag) => {
    for (const line of writableSchemaWarnings(result.writableSchemas)) ctx.err(`${line}\n`);
    if (result.rewriteChunks !== null) {
      ctx.err(
        "note: the chunks pushed before schema 15 keep their tsvector outside the row, slower to rank on a large library, " +
          `until the table is rewritten: at a quiet time, as the administrator, run \`${result.rewriteChunks}\` in psql ` +
          "(it holds the team's chunks, pushes and searches wait, for a few minutes per GB; docs/team.md)\n",
      );
    }
    if (flags.json) return ctx.out(formatJson(result));
    const what =
      result.applied.length === 0
        ? `ctx's schema is up to date (version ${result.to})`
        : `applied ${result.applied.map((m) => `${m.version} (${m.name})`).join(", ")}: schema version ${result.from} -> ${result.to}`;
    ctx.out(`${result.server}: ${what}\n`);
  };
}
