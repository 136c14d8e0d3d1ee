// `ctx team join <url> --team <name>`: the server checked as this member, then stored in the user's OWN config
// (~/.ctx/config.json; `team.url` is secret, so a repository's file can never set it).
import type { Command } from "commander";
import { globalConfigPath } from "../../config/load.ts";
import { passwordsInUrl } from "../../core/team/server-url.ts";
import { setConfigValue } from "../../store/config/config-file.ts";
import type { TeamMembership } from "../../team/inspect.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamJoinCommand(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { connectOptions, serverFrom, service } = kit;
  team
    .command("join")
    .description("join a team as this machine's member: checks the server, then stores it in ~/.ctx/config.json")
    .argument("<url>", "postgresql://<your role>@<host>:<port>/<database>?sslmode=verify-full")
    .requiredOption("--team <name>", "the team the administrator added you to")
    .option("--json", "print JSON for scripts")
    .action(async (url: string, flags: { team: string } & JsonFlag) => {
      const { joinCheck } = await service();
      const membership = await joinCheck(serverFrom(url), connectOptions(), flags.team);
      // Only the user's own file: a project's .ctx/config.json is never where a member's server is kept.
      const target = { path: globalConfigPath(ctx.env) };
      await setConfigValue(target, "team.url", url.trim());
      await setConfigValue(target, "team.name", flags.team);
      if (flags.json) return ctx.out(formatJson({ configFile: target.path, membership }));
      ctx.out(formatJoin(membership, target.path, passwordsInUrl(url).length > 0));
    });
}

function formatJoin(membership: TeamMembership, configFile: string, passwordInUrl: boolean): string {
  const rows: [string, string][] = [
    ["server", membership.server],
    ["team", membership.team],
    ["member", `${membership.role} (handle ${membership.handle})`],
    ["schema", `version ${membership.schemaVersion} (this ctx: ${membership.expectedSchemaVersion})`],
    ["reads", membership.rights.read.join(", ")],
    ["writes", `${membership.rights.write.join(", ")} (its own rows only)`],
    ["saved in", configFile],
  ];
  const notes: string[] = [];
  if (passwordInUrl) {
    notes.push(
      `note: the URL's password is kept in ${configFile} (mode 0600); ~/.pgpass or PGPASSWORD keep it out of ctx's config`,
    );
  }
  if (membership.bypassesRowSecurity) {
    notes.push(
      "warning: this role is a superuser or has BYPASSRLS: it sees every team's rows; join with a member role",
    );
  }
  return `joined team ${membership.team}\n${formatRows(rows)}${notes.map((n) => `${n}\n`).join("")}`;
}
