// `ctx doctor`: placeholder registration, replaced by the real command in this same change.
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

export function registerDoctorCommand(program: Command, _ctx: CliContext): void {
  program.command("doctor").description("(in progress)");
}
