// `ctx hook <event>`: normally taken by the fast path in src/bin (no commander); registered here so that
// `ctx --help` lists it and `ctx hook --help` explains it. It runs the same dispatcher.
import type { Command } from "commander";
import { HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEventSpec } from "../../core/hooks/events.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";

export function registerHookCommand(program: Command, ctx: CliContext): void {
  const events = HOOK_EVENT_NAMES.join(", ");
  program
    .command("hook")
    .description(COMMANDS.hook.description)
    .argument("<event>", `one of: ${events} (Claude Code's names such as SessionStart work too)`)
    .addHelpText(
      "after",
      `\nAlways exits 0 unless blocking is the feature; problems are one line on stderr.\n\n${describeHookEvents()}`,
    )
    .action(async (event: string) => {
      const { runHookProcess, loadHook } = await import("../../hooks/runtime/run.ts");
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

/**
 * The events, as the table holds them (core/hooks/events.ts; docs/hooks.md points here): each one's names, Claude
 * Code's name, where it runs, what `ctx init` and the plugin wire, and what it does.
 */
export function describeHookEvents(): string {
  const lines = ["Events (src/core/hooks/events.ts):"];
  for (const event of HOOK_EVENT_NAMES) {
    const row: HookEventSpec = HOOK_EVENTS[event];
    const names = [event, ...(row.aliases ?? [])].join(", ");
    const wired = [
      row.wiring.matcher === undefined ? "every source" : `matcher ${row.wiring.matcher}`,
      `timeout ${row.wiring.timeout} s`,
      ...(row.wiring.mcpTool === undefined ? [] : [`or mcp_tool ${row.wiring.mcpTool.tool}`]),
    ].join(", ");
    const runs = row.lean === true ? "the lean entry" : "the program";
    lines.push(`  ${names} (${row.claude}; runs in ${runs}; wired: ${wired})`, `      ${row.summary}`);
  }
  return lines.join("\n");
}
