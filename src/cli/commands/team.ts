// `ctx team …`: the team session library on PostgreSQL (docs/team.md). The administrator creates ctx's schema and
// adds members; each member joins with their own role, which stores the server and team in the member's OWN config
// (~/.ctx/config.json; `team.url` is secret, so a repository's file can never set it), then shares projects, pushes
// and forgets. The server is always shown without its password. node-postgres is loaded only by these commands.
// One file per subcommand beside this one (team-*.ts); what they share is in team-shared.ts.
import type { Command } from "commander";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { registerTeamAddMemberCommand } from "./team-add-member.ts";
import { registerTeamForgetCommand } from "./team-forget.ts";
import { registerTeamJoinCommand } from "./team-join.ts";
import { registerTeamMigrateCommands } from "./team-migrate.ts";
import { registerTeamPushCommand } from "./team-push.ts";
import { registerTeamShareCommands } from "./team-share.ts";
import { teamCommandKit } from "./team-shared.ts";
import { registerTeamStatusCommand } from "./team-status.ts";

export function registerTeamCommand(program: Command, ctx: CliContext): void {
  const kit = teamCommandKit(ctx);
  const team = program.command("team").description(COMMANDS.team.description);
  registerTeamMigrateCommands(team, ctx, kit);
  registerTeamAddMemberCommand(team, ctx, kit);
  registerTeamJoinCommand(team, ctx, kit);
  registerTeamStatusCommand(team, ctx, kit);
  registerTeamShareCommands(team, ctx, kit);
  registerTeamPushCommand(team, ctx, kit);
  registerTeamForgetCommand(team, ctx, kit);
}
