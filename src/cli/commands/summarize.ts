// `ctx summarize [session] [--from <uuid>] [--provider P]`: make (or remake) a session's per-message summaries
// and keep them in `.ctx/summaries/<session-id>.ctx`; `--print` writes the assembled context instead.
import { type Command, Option } from "commander";
import { SummaryProviderNameSchema } from "../../core/summaries/sidecar.ts";
import { CtxError } from "../../errors.ts";
import { type AssemblyPresetChoice, summarizeReportOf, summarizeSession } from "../../summaries/operations.ts";
import { resolveSummarySession } from "../../summaries/session-source.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";

interface SummarizeFlags extends ProjectFlags {
  from?: string;
  provider?: "extractive" | "claude-cli" | "anthropic";
  preset?: AssemblyPresetChoice;
  print?: boolean;
  background?: boolean;
  idleMs?: string;
}

export function presetOption(): Option {
  return new Option("--preset <preset>", "assembly layout: smart (configured layers) or bridge (5 / 6-20 / older)")
    .choices(["smart", "bridge"])
    .default("smart");
}

export function registerSummarizeCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("summarize")
      .description(COMMANDS.summarize.description)
      .argument("[session]", "session id or transcript path (default: the newest session seen here)")
      .option("--from <uuid>", "summarise again from this message on")
      .addOption(
        new Option("--provider <provider>", "extractive (offline), claude-cli or anthropic (default: config)").choices(
          SummaryProviderNameSchema.options,
        ),
      )
      .addOption(presetOption())
      .option("--print", "print the assembled context (recent verbatim, middle summarised, oldest folded)")
      .option(
        "--background",
        "summarise this project's quiet sessions with the configured provider (ctx serve runs this)",
      )
      .option("--idle-ms <ms>", "with --background: a session is quiet after this long without a write", "60000"),
  ).action(async (session: string | undefined, flags: SummarizeFlags) => {
    const deps = contextOpsDepsFor(ctx, flags);
    if (flags.background === true) {
      const idleMs = Number(flags.idleMs);
      if (!Number.isInteger(idleMs) || idleMs < 0) {
        throw new CtxError("USAGE", `--idle-ms ${flags.idleMs} is not a number of milliseconds`, {
          hint: "pass a whole number, e.g. --idle-ms 60000",
        });
      }
      const { summarizeQuietSessions } = await import("../../summaries/background.ts");
      const report = await summarizeQuietSessions({ ...deps, env: ctx.env }, { idleMs });
      if (flags.json === true) ctx.out(formatJson(report));
      else
        ctx.out(
          `${report.sessions.length} session(s) summarised with ${report.provider}, ${report.skipped.length} skipped${report.capped ? " (daily cap reached)" : ""}\n`,
        );
      return;
    }
    const ref = await resolveSummarySession({ ...deps, cwd: ctx.cwd, env: ctx.env }, session);
    const result = await summarizeSession({ ...deps, env: ctx.env }, ref, {
      ...(flags.from === undefined ? {} : { from: flags.from }),
      ...(flags.provider === undefined ? {} : { provider: flags.provider }),
      ...(flags.preset === undefined ? {} : { preset: flags.preset }),
    });
    const s = result.summaries;
    for (const warning of s.warnings) ctx.err(`ctx: warning: ${warning}\n`);
    if (flags.print === true) {
      ctx.out(
        flags.json ? formatJson({ sessionId: ref.sessionId, text: result.assembly.text }) : `${result.assembly.text}\n`,
      );
      return;
    }
    const report = summarizeReportOf(result);
    if (flags.json === true) {
      ctx.out(formatJson(report));
      return;
    }
    const st = result.stats;
    ctx.out(
      formatRows([
        ["session", `${report.sessionId} (${report.messages} messages)`],
        [
          "summarised",
          `${report.made} now with ${report.provider}${report.fallbacks > 0 ? ` (${report.fallbacks} fell back to extractive)` : ""}, ${report.reused} reused`,
        ],
        ["llm requests", String(report.llmRequests)],
        ["kept in", report.sidecar],
        [
          "assembled",
          `${st.assembledTokens} of ${st.originalTokens} tokens (${(st.compressionRatio * 100).toFixed(1)}%): ` +
            `${st.layers.recent.messages} verbatim, ${st.layers.summarized.messages} summarised, ${st.layers.aggregate.messages} folded`,
        ],
      ]),
    );
  });
}
