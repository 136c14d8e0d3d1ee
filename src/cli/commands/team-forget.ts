// `ctx team forget <session-id> | --mine [--project]`: this member's own sessions deleted from the team server.
import type { Command } from "commander";
import { CtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamForgetCommand(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { joinedServer, projectFolder } = kit;
  team
    .command("forget")
    .description("delete your own sessions from the team server: one by id, or --mine [--project]")
    .argument("[session-id]", "the session to delete")
    .option("--mine", "all of your sessions")
    .option("--project", "with --mine: only this project's")
    .option("--json", "print JSON for scripts")
    .action(async (id: string | undefined, flags: JsonFlag & { mine?: boolean; project?: boolean }) => {
      if ((id === undefined) === (flags.mine !== true) || (flags.project === true && flags.mine !== true)) {
        throw new CtxError("USAGE", "give one session id, or --mine (optionally with --project)", {
          hint: "ctx team forget <session-id> | ctx team forget --mine [--project]",
        });
      }
      const server = joinedServer();
      const { forgetSessions } = await import("../../team/share.ts");
      const { checkoutIdentity } = await import("../../transplant/checkout-identity.ts");
      const project = flags.project === true ? await checkoutIdentity(projectFolder()) : undefined;
      const result = await forgetSessions({
        server,
        dbPath: resolveIndexPath(ctx.env),
        ...(id === undefined ? {} : { ids: [id] }),
        ...(project === undefined ? {} : { project }),
      });
      if (id !== undefined && result.deleted.length === 0) {
        throw new CtxError(
          "NOT_FOUND",
          `the server has no session ${JSON.stringify(id)} of yours in team ${server.team}`,
          {
            hint: "`ctx team forget` deletes only your own sessions",
          },
        );
      }
      if (flags.json) return ctx.out(formatJson(result));
      ctx.out(
        `deleted ${result.deleted.length} session${result.deleted.length === 1 ? "" : "s"} from team ${server.team} (with their chunks and transcripts)\n`,
      );
    });
}
