// `ctx config list|get|set|unset|path [--global|--project] [--json]` and `trust|untrust`: the four config layers
// (defaults, the global file, the project's file, CTX_* variables) seen and edited from the shell. Values are checked
// against the schema before anything is written; a refused value names the field and what it allows.
// One file per subcommand beside this one; what they share is in config-helpers.ts.
import type { Command } from "commander";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { registerConfigGetCommand } from "./config-get.ts";
import { createConfigHelpers } from "./config-helpers.ts";
import { registerConfigListCommand } from "./config-list.ts";
import { registerConfigPathCommand } from "./config-path.ts";
import { registerConfigSetCommand } from "./config-set.ts";
import { registerConfigTrustCommands } from "./config-trust.ts";
import { registerConfigUnsetCommand } from "./config-unset.ts";

export function registerConfigCommand(program: Command, ctx: CliContext): void {
  const helpers = createConfigHelpers(ctx);
  const config = program.command("config").description(COMMANDS.config.description);
  registerConfigListCommand(config, ctx, helpers);
  registerConfigGetCommand(config, ctx, helpers);
  registerConfigSetCommand(config, ctx, helpers);
  registerConfigUnsetCommand(config, helpers);
  registerConfigTrustCommands(config, ctx, helpers);
  registerConfigPathCommand(config, ctx, helpers);
}
