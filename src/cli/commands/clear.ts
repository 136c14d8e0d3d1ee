// `ctx clear --force`: delete the project's current saved context. Snapshots, checkpoints and named saves
// stay. Without --force it refuses (exit 2, with the hint), since nothing can bring the state back.
import type { Command } from "commander";
import { clearContext } from "../../store/context/operations.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";

export function registerClearCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program.command("clear").description(COMMANDS.clear.description).option("--force", "really delete it"),
  ).action(async (flags: ProjectFlags & { force?: boolean }) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const report = await clearContext(deps, { force: flags.force === true });
    if (flags.json) ctx.out(formatJson(report));
    else ctx.out(report.cleared ? `cleared ${report.path}\n` : `nothing to clear: ${report.path} does not exist\n`);
  });
}
