// `ctx team add-member <role> --team <name>` (administrator): an existing PostgreSQL role made a member of a team.
import type { Command } from "commander";
import type { TeamMemberResult } from "../../team/members.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamAddMemberCommand(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { connectOptions, serverFrom, service } = kit;
  team
    .command("add-member")
    .description("make an existing PostgreSQL role a member of a team, creating the team if needed (administrator)")
    .argument("<role>", "the member's PostgreSQL role (create it first: CREATE ROLE … LOGIN PASSWORD …)")
    .requiredOption("--team <name>", "the team")
    .option("--handle <handle>", "the name teammates see (default: the role)")
    .option("--url <url>", "the server, as the administrator (default: team.url)")
    .option("--json", "print JSON for scripts")
    .action(async (role: string, flags: { team: string; handle?: string; url?: string } & JsonFlag) => {
      const { addMember } = await service();
      const result = await addMember(serverFrom(flags.url), connectOptions(), {
        role,
        team: flags.team,
        ...(flags.handle === undefined ? {} : { handle: flags.handle }),
      });
      if (flags.json) return ctx.out(formatJson(result));
      ctx.out(formatMember(result));
    });
}

function formatMember(result: TeamMemberResult): string {
  const lines = [
    `${result.added ? "added" : "updated"} ${result.role} to team ${result.team}${result.teamCreated ? " (new team)" : ""} as ${result.handle}`,
    `server: ${result.server}`,
  ];
  if (result.bypassesRowSecurity) {
    lines.push(
      `warning: ${result.role} is a superuser or has BYPASSRLS: it sees every team's rows; members should be plain login roles`,
    );
  }
  return `${lines.join("\n")}\n`;
}
