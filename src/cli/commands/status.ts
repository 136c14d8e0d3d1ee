// `ctx status [--json]`: what ctx holds for this project.
import type { Command } from "commander";
import { findProjectRoot, requireProjectDir } from "../../config/paths.ts";
import { formatStatusText } from "../../core/status/report.ts";
import { collectProjectStatus } from "../../store/status/project-status.ts";
import { CTX_VERSION } from "../../version.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

export function registerStatusCommand(program: Command, ctx: CliContext): void {
  program
    .command("status")
    .description(COMMANDS.status.description)
    .option("--json", "print JSON for scripts")
    .option("--project <dir>", "project folder (default: found from the current folder)")
    .action(async (options: { json?: boolean; project?: string }) => {
      const status = await collectProjectStatus(
        options.project !== undefined ? requireProjectDir(ctx.cwd, options.project) : findProjectRoot(ctx.cwd, ctx.env),
        CTX_VERSION,
      );
      ctx.out(options.json ? formatJson(status) : formatStatusText(status));
    });
}
