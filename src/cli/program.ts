// The commander program. Every top-level command is named from its static descriptor (./help.ts COMMANDS); only the
// one chosen on the command line is loaded from its module under ./commands (each exporting register<Name>Command),
// so `ctx --help` loads no command and `ctx status` loads status alone. Errors are translated once, in src/bin/main.ts.
import { Command, CommanderError, Help } from "commander";
import { CTX_VERSION } from "../version.ts";
import type { CliContext } from "./command-io.ts";
import { applyHelpLayout, COMMANDS, type CommandName, isCommandName } from "./help.ts";
import { writerOf } from "./output.ts";

type Register = (program: Command, ctx: CliContext) => void;

/** Each command's module, imported only when the command runs (the bundle makes each a chunk of its own). */
const COMMAND_MODULES: Record<CommandName, () => Promise<Register>> = {
  init: async () => (await import("./commands/init.ts")).registerInitCommand,
  doctor: async () => (await import("./commands/doctor.ts")).registerDoctorCommand,
  config: async () => (await import("./commands/config.ts")).registerConfigCommand,
  completion: async () => (await import("./commands/completion.ts")).registerCompletionCommand,
  status: async () => (await import("./commands/status.ts")).registerStatusCommand,
  save: async () => (await import("./commands/save.ts")).registerSaveCommand,
  restore: async () => (await import("./commands/restore.ts")).registerRestoreCommand,
  diff: async () => (await import("./commands/diff.ts")).registerDiffCommand,
  clear: async () => (await import("./commands/clear.ts")).registerClearCommand,
  checkpoint: async () => (await import("./commands/checkpoint.ts")).registerCheckpointCommand,
  snapshot: async () => (await import("./commands/snapshot.ts")).registerSnapshotCommand,
  rules: async () => (await import("./commands/rules.ts")).registerRulesCommand,
  audit: async () => (await import("./commands/audit.ts")).registerAuditCommand,
  archive: async () => (await import("./commands/archive.ts")).registerArchiveCommand,
  budget: async () => (await import("./commands/budget.ts")).registerBudgetCommand,
  index: async () => (await import("./commands/index-command.ts")).registerIndexCommand,
  stats: async () => (await import("./commands/stats.ts")).registerStatsCommand,
  reindex: async () => (await import("./commands/reindex.ts")).registerReindexCommand,
  search: async () => (await import("./commands/search.ts")).registerSearchCommand,
  show: async () => (await import("./commands/show.ts")).registerShowCommand,
  fork: async () => (await import("./commands/fork.ts")).registerForkCommand,
  forks: async () => (await import("./commands/forks.ts")).registerForksCommand,
  export: async () => (await import("./commands/export.ts")).registerExportCommand,
  import: async () => (await import("./commands/import.ts")).registerImportCommand,
  session: async () => (await import("./commands/session.ts")).registerSessionCommand,
  embed: async () => (await import("./commands/embed.ts")).registerEmbedCommand,
  ui: async () => (await import("./commands/ui.ts")).registerUiCommand,
  "context-stats": async () => (await import("./commands/context-stats.ts")).registerContextStatsCommand,
  statusline: async () => (await import("./commands/statusline.ts")).registerStatusLineCommand,
  report: async () => (await import("./commands/report.ts")).registerReportCommand,
  chunk: async () => (await import("./commands/chunk.ts")).registerChunkCommand,
  summarize: async () => (await import("./commands/summarize.ts")).registerSummarizeCommand,
  summaries: async () => (await import("./commands/summaries.ts")).registerSummariesCommand,
  bridge: async () => (await import("./commands/bridge.ts")).registerBridgeCommand,
  team: async () => (await import("./commands/team.ts")).registerTeamCommand,
  serve: async () => (await import("./commands/serve.ts")).registerServeCommand,
  hook: async () => (await import("./commands/hook.ts")).registerHookCommand,
};

/** Commands whose action reads the whole command tree (the completion script lists every option): all are loaded. */
const NEEDS_EVERY_COMMAND: ReadonlySet<CommandName> = new Set(["completion"]);

/** Which commands to load from their modules: the one the command line runs, or all (`"all"`). */
export type CommandsToLoad = "all" | readonly CommandName[];

/** The command `argv` runs: its first word that is not an option (ctx's own options take no value), when that word
 *  names a command; with the commands its action needs. None for `ctx`, `ctx --help`, `ctx --version`. */
export function commandsToLoad(argv: readonly string[]): CommandsToLoad {
  const chosen = argv.find((arg) => !arg.startsWith("-"));
  if (chosen === undefined || !isCommandName(chosen)) return [];
  return NEEDS_EVERY_COMMAND.has(chosen) ? "all" : [chosen];
}

/** The program with every command: those in `load` registered from their modules, the others named by their
 *  descriptors only (enough for the list in `ctx --help` and commander's "did you mean"; never run). */
export async function createProgram(io: CliContext, load: CommandsToLoad = "all"): Promise<Command> {
  // Every command writes through these: sanitized, then painted, then handed to the sink (src/bin/main.ts: stdio).
  const ctx = withChanges(io, { out: writerOf(io.out), err: writerOf(io.err) });
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
  const names = Object.keys(COMMANDS) as CommandName[];
  const registers = await Promise.all(
    names.map((name) => (load === "all" || load.includes(name) ? COMMAND_MODULES[name]() : undefined)),
  );
  names.forEach((name, i) => {
    const register = registers[i];
    if (register !== undefined) register(program, ctx);
    else program.command(name).description(COMMANDS[name].description);
  });
  // The list in `ctx --help` names each command by its descriptor, loaded or not; a command's own help and its
  // subcommands' lists stay commander's.
  const help = new Help();
  program.configureHelp({
    subcommandTerm: (command) =>
      command.parent === program && isCommandName(command.name())
        ? COMMANDS[command.name() as CommandName].term
        : help.subcommandTerm(command),
  });
  applyHelpLayout(program, ctx);
  return program;
}

/** `base` with `changes`, its getters kept as getters (src/bin/main.ts makes stdin one: a spread would build Node's
 *  stdin stream for every command). */
function withChanges(base: CliContext, changes: Partial<CliContext>): CliContext {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(base));
  return Object.defineProperties(copy, Object.getOwnPropertyDescriptors(changes)) as CliContext;
}

/** Runs the CLI; returns the exit code. Commander's own usage errors become exit 2 with a hint. */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode = 0;
  const program = await createProgram(
    withChanges(ctx, { setExitCode: (code) => (exitCode = code) }),
    commandsToLoad(argv),
  );
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
