// `ctx hook <event>`: normally taken by the fast path in src/bin (no commander); registered here so that
// `ctx --help` lists it and `ctx hook --help` explains it. It runs the same dispatcher.
import type { Command } from "commander";
import { HOOK_EVENT_NAMES } from "../../core/hooks/events.ts";
import type { CliContext } from "../command-io.ts";

export function registerHookCommand(program: Command, ctx: CliContext): void {
  const events = HOOK_EVENT_NAMES.join(", ");
  program
    .command("hook")
    .description("handle a Claude Code hook event: reads the hook JSON on stdin, prints only the hook reply")
    .argument("<event>", `one of: ${events} (Claude Code's names such as SessionStart work too)`)
    .addHelpText("after", "\nAlways exits 0 unless blocking is the feature; problems are one line on stderr.")
    .action(async (event: string) => {
      const [{ runHookProcess }, { loadHook }] = await Promise.all([
        import("../../hooks/runtime/process.ts"),
        import("../../hooks/runtime/table.ts"),
      ]);
      const result = await runHookProcess(
        event,
        { stdin: ctx.stdin as NodeJS.ReadStream, env: ctx.env, cliPath: ctx.cliPath ?? "" },
        loadHook,
      );
      if (result.stderr !== "") ctx.err(result.stderr);
      if (result.stdout !== "") ctx.out(result.stdout);
      ctx.setExitCode(result.exitCode);
    });
}
