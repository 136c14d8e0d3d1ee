// `ctx team share` and `ctx team unshare`: this project's sessions shared with the team from now on, or no longer
// (the decision is kept in ctx's own state, never in a file of the repository).
import type { Command } from "commander";
import { projectName } from "../../core/team/project-identity.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamShareCommands(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { joinedServer, projectFolder } = kit;
  team
    .command("share")
    .description("share this project's sessions (redacted) with the team: your decision, kept in ctx's own state")
    .option("--json", "print JSON for scripts")
    .action(async (flags: JsonFlag) => {
      const server = joinedServer();
      const { shareProject } = await import("../../team/share.ts");
      const result = await shareProject({
        env: ctx.env,
        folder: projectFolder(),
        dbPath: resolveIndexPath(ctx.env),
        server,
      });
      if (result.queued > 0 && ctx.cliPath) {
        const { startBackgroundPusher } = await import("../../team/pusher.ts");
        startBackgroundPusher({ env: ctx.env, cliPath: ctx.cliPath });
      }
      if (flags.json) return ctx.out(formatJson(result));
      const name = projectName(result.project);
      const lines = [
        `${result.added ? "sharing" : "already sharing"} ${name} with team ${server.team} (from ${result.root})`,
        `${result.queued} indexed session${result.queued === 1 ? "" : "s"} queued; new ones are queued as they are indexed and pushed in the background`,
      ];
      if (result.serverError !== null) {
        lines.push(
          `note: the server could not be reached (${result.serverError}); the project is added at the first push`,
        );
      }
      lines.push("stop with `ctx team unshare`; remove what was pushed with `ctx team forget --mine --project`");
      ctx.out(`${lines.join("\n")}\n`);
    });

  team
    .command("unshare")
    .description("stop sharing this project: nothing more is queued or pushed (what the server has stays until forget)")
    .option("--json", "print JSON for scripts")
    .action(async (flags: JsonFlag) => {
      const { unshareProject } = await import("../../team/share.ts");
      const result = await unshareProject({ env: ctx.env, folder: projectFolder(), dbPath: resolveIndexPath(ctx.env) });
      if (flags.json) return ctx.out(formatJson(result));
      if (result.project === null) return ctx.out(`${result.root} was not shared\n`);
      ctx.out(
        `stopped sharing ${projectName(result.project)} (from ${result.root}); ${result.dropped} queued session${result.dropped === 1 ? "" : "s"} dropped\n` +
          "what the server has stays: `ctx team forget --mine --project` removes it\n",
      );
    });
}
