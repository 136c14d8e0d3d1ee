// The commander program: one file per command under ./commands, each exporting register<Name>Command.
// Errors are translated once, in src/bin/main.ts (the program's entry).
import { Command, CommanderError } from "commander";
import { CTX_VERSION } from "../version.ts";
import type { CliContext } from "./command-io.ts";
import { registerArchiveCommand } from "./commands/archive.ts";
import { registerAuditCommand } from "./commands/audit.ts";
import { registerBridgeCommand } from "./commands/bridge.ts";
import { registerBudgetCommand } from "./commands/budget.ts";
import { registerCheckpointCommand } from "./commands/checkpoint.ts";
import { registerChunkCommand } from "./commands/chunk.ts";
import { registerClearCommand } from "./commands/clear.ts";
import { registerCompletionCommand } from "./commands/completion.ts";
import { registerConfigCommand } from "./commands/config.ts";
import { registerContextStatsCommand } from "./commands/context-stats.ts";
import { registerDiffCommand } from "./commands/diff.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { registerEmbedCommand } from "./commands/embed.ts";
import { registerForkCommand } from "./commands/fork.ts";
import { registerHookCommand } from "./commands/hook.ts";
import { registerIndexCommand } from "./commands/index-command.ts";
import { registerInitCommand } from "./commands/init.ts";
import { registerReindexCommand } from "./commands/reindex.ts";
import { registerReportCommand } from "./commands/report.ts";
import { registerRestoreCommand } from "./commands/restore.ts";
import { registerRulesCommand } from "./commands/rules.ts";
import { registerSaveCommand } from "./commands/save.ts";
import { registerSearchCommand } from "./commands/search.ts";
import { registerServeCommand } from "./commands/serve.ts";
import { registerSnapshotCommand } from "./commands/snapshot.ts";
import { registerStatsCommand } from "./commands/stats.ts";
import { registerStatusCommand } from "./commands/status.ts";
import { registerStatusLineCommand } from "./commands/statusline.ts";
import { registerSummariesCommand } from "./commands/summaries.ts";
import { registerSummarizeCommand } from "./commands/summarize.ts";
import { registerTeamCommand } from "./commands/team.ts";
import { applyHelpLayout } from "./help.ts";
import { writerOf } from "./output.ts";

export function createProgram(io: CliContext): Command {
  // Every command writes through these: sanitized, then painted, then handed to the sink (src/bin/main.ts: stdio).
  const ctx: CliContext = { ...io, out: writerOf(io.out), err: writerOf(io.err) };
  const program = new Command("ctx")
    .description("Keeps Claude Code's working context alive across compactions, sessions and months.")
    .version(CTX_VERSION, "-V, --version", "print the version")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.out(text),
      writeErr: (text) => ctx.err(text),
      outputError: (text, write) => write(text),
    });
  program.addHelpText(
    "after",
    "\n`ctx <command> --help` shows a command's options and examples. Docs: README.md and docs/.\nDiagnostics go to stderr; CTX_LOG_LEVEL=debug shows more, NO_COLOR=1 turns colour off.",
  );

  registerServeCommand(program, ctx);
  registerHookCommand(program, ctx);
  registerInitCommand(program, ctx);
  registerStatusCommand(program, ctx);
  registerDoctorCommand(program, ctx);
  registerConfigCommand(program, ctx);
  registerSaveCommand(program, ctx);
  registerRestoreCommand(program, ctx);
  registerDiffCommand(program, ctx);
  registerClearCommand(program, ctx);
  registerCheckpointCommand(program, ctx);
  registerSnapshotCommand(program, ctx);
  registerIndexCommand(program, ctx);
  registerStatsCommand(program, ctx);
  registerReindexCommand(program, ctx);
  registerSearchCommand(program, ctx);
  registerForkCommand(program, ctx);
  registerRulesCommand(program, ctx);
  registerAuditCommand(program, ctx);
  registerArchiveCommand(program, ctx);
  registerBudgetCommand(program, ctx);
  registerChunkCommand(program, ctx);
  registerEmbedCommand(program, ctx);
  registerSummarizeCommand(program, ctx);
  registerSummariesCommand(program, ctx);
  registerContextStatsCommand(program, ctx);
  registerTeamCommand(program, ctx);
  registerStatusLineCommand(program, ctx);
  registerReportCommand(program, ctx);
  registerCompletionCommand(program, ctx);
  registerBridgeCommand(program, ctx);
  applyHelpLayout(program, ctx);
  return program;
}

/** Runs the CLI; returns the exit code. Commander's own usage errors become exit 2 with a hint. */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode = 0;
  const program = createProgram({ ...ctx, setExitCode: (code) => (exitCode = code) });
  if (argv.length === 0) {
    // `ctx` alone: the help is the answer asked for, so it goes to stdout with exit 0.
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
      if (error.code === "commander.help") return 0;
      ctx.err("ctx: run `ctx --help` for the commands and their options\n");
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
}
