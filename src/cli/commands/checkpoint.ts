// `ctx checkpoint [--session <id>]`: write a rolling checkpoint of the session's context now (the hooks
// write one every checkpoints.intervalMessages messages; the newest checkpoints.keep are kept).
import type { Command } from "commander";
import { checkpointContext, checkpointReportOf } from "../../store/context/operations.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";

export function registerCheckpointCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("checkpoint")
      .description(COMMANDS.checkpoint.description)
      .option("--session <id>", "the Claude Code session to capture (default: the newest one seen here)"),
  ).action(async (flags: ProjectFlags & { session?: string }) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const result = await checkpointContext(deps, flags.session === undefined ? {} : { sessionId: flags.session });
    const report = checkpointReportOf(result);
    if (flags.json) ctx.out(formatJson(report));
    else
      ctx.out(
        formatRows([
          ["checkpoint", report.id],
          ["session", report.sessionId],
          ["to", report.path],
          ["restore with", `ctx restore --checkpoint ${report.id}`],
        ]),
      );
  });
}
