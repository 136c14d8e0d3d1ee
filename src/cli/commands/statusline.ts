// `ctx statusline`: the command `ctx init --statusline` gives Claude Code's `statusLine` setting. The
// work is in ../statusline.ts (src/bin runs it without commander, as for hooks).
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { runStatusLine } from "../statusline.ts";

export function registerStatusLineCommand(program: Command, ctx: CliContext): void {
  program
    .command("statusline")
    .description(COMMANDS.statusline.description)
    .action(async () => {
      await runStatusLine(ctx.stdin, ctx.out, {
        env: ctx.env,
        now: () => new Date(),
        cwd: ctx.cwd,
        findProjectRoot: (cwd) => findProjectRoot(cwd, ctx.env),
        loadConfig: (projectRoot) => loadConfig({ projectRoot, env: ctx.env }),
      });
    });
}
