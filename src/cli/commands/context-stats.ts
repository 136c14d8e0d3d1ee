// `ctx context-stats [--session S]`: how a session's context assembles within the token budget: tokens and
// messages per layer, the compression ratio, and the summaries it rests on (missing ones made extractively).
import type { Command } from "commander";
import { formatContextStats } from "../../core/summaries/stats.ts";
import { type AssemblyPresetChoice, contextStats } from "../../summaries/operations.ts";
import { resolveSummarySession } from "../../summaries/session-source.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";
import { presetOption } from "./summarize.ts";

interface ContextStatsFlags extends ProjectFlags {
  session?: string;
  preset?: AssemblyPresetChoice;
}

export function registerContextStatsCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("context-stats")
      .description(COMMANDS["context-stats"].description)
      .option("--session <session>", "session id or transcript path (default: the newest session seen here)")
      .addOption(presetOption()),
  ).action(async (flags: ContextStatsFlags) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const ref = await resolveSummarySession({ ...deps, cwd: ctx.cwd, env: ctx.env }, flags.session);
    const result = await contextStats({ ...deps, env: ctx.env }, ref, flags.preset);
    for (const warning of result.summaries.warnings) ctx.err(`ctx: warning: ${warning}\n`);
    ctx.out(flags.json === true ? formatJson(result.stats) : formatContextStats(result.stats));
  });
}
