// `ctx index [--claude-dir DIR] [--full] [--json] [--quiet]`: bring the session index up to date with the
// transcripts under ~/.claude/projects (incremental; Ctrl-C stops after the current file, the next run resumes).
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { type IndexRunOptions, runIndexSync } from "../index-run.ts";

export function registerIndexCommand(program: Command, ctx: CliContext): void {
  program
    .command("index")
    .description(COMMANDS.index.description)
    .option("--claude-dir <dir>", "Claude Code's folder (default: CLAUDE_CONFIG_DIR, else ~/.claude)")
    .option("--full", "re-read every transcript from the start")
    .option("--json", "print the sync summary as JSON")
    .option("--quiet", "no progress and no summary")
    .option("--file <transcript>", "only this session's transcript (SessionEnd queues this for the ended session)")
    .action(async (options: IndexRunOptions) => {
      await runIndexSync(ctx, options);
      // A whole run also brings fork history's lift up to date (docs/forks.md "Ranking"); not SessionEnd's one file,
      // which would read every fork's transcript after every session.
      if (options.file === undefined) await refreshForkHistory(ctx);
    });
}

async function refreshForkHistory(ctx: CliContext): Promise<void> {
  try {
    const { loadForkHistory } = await import("../../search/fork-history.ts");
    await loadForkHistory({ env: ctx.env, projectRoot: findProjectRoot(ctx.cwd, ctx.env) });
  } catch (error) {
    ctx.err(`ctx: ${sanitizeLogLine(`fork history not updated: ${(error as Error).message}`)}\n`);
  }
}
