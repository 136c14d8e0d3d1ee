// `ctx init`: placeholder registration, replaced by the real command in this same change.
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

export function registerInitCommand(program: Command, _ctx: CliContext): void {
  program.command("init").description("(in progress)");
}
