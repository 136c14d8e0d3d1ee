// `ctx save [--name <n>] [--session <id>]`: capture the session's context from its transcript now and
// keep it as the project's current state (and as a named save).
import type { Command } from "commander";
import { type SaveReport, saveContext, saveReportOf } from "../../store/context/operations.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";

interface SaveFlags extends ProjectFlags {
  name?: string;
  session?: string;
}

export function registerSaveCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("save")
      .description(COMMANDS.save.description)
      .option("--name <name>", "also keep it as a named save (restore it with `ctx restore --name`)")
      .option("--session <id>", "the Claude Code session to capture (default: the newest one seen here)"),
  ).action(async (flags: SaveFlags) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const result = await saveContext(deps, {
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.session === undefined ? {} : { sessionId: flags.session }),
    });
    const report = saveReportOf(result, flags.name ?? null);
    if (result.movedAside !== null) {
      ctx.err(`ctx: the previous state file did not verify; it was kept as ${result.movedAside}\n`);
    }
    ctx.out(flags.json ? formatJson(report) : formatSaveReport(report));
  });
}

function formatSaveReport(report: SaveReport): string {
  const c = report.counts;
  return formatRows([
    ["saved", `session ${report.sessionId}${report.name === null ? "" : ` as "${report.name}"`}`],
    ["to", report.name === null ? report.path : `${report.path} (and the current state)`],
    [
      "holding",
      `${c.conversationMessages} messages, ${c.todos} todos, ${c.decisions} decisions, ${c.preferences} preferences, ` +
        `${c.files} files, ${c.toolCalls} tool calls`,
    ],
    ["redacted", `${report.redactions} secret${report.redactions === 1 ? "" : "s"}`],
  ]);
}
