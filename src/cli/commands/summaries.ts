// `ctx summaries ledger` (the LLM providers' daily token use against the cap) and `ctx summaries clear
// [session]` (delete stored summaries; they are made again when needed).
import { basename } from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { ledgerDay, ledgerRows, tokensUsedOn } from "../../core/summaries/ledger.ts";
import { ledgerPath, loadLedger } from "../../store/summaries/ledger-store.ts";
import { clearSidecars } from "../../store/summaries/sidecar-store.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor } from "../project-flags.ts";
import type { LedgerReport, SummariesClearReport } from "../summaries-reports.ts";

export function registerSummariesCommand(program: Command, ctx: CliContext): void {
  const summaries = program.command("summaries").description(COMMANDS.summaries.description);

  addProjectFlags(
    summaries.command("ledger").description("LLM summary tokens used per day, provider and model"),
  ).action(async (flags: ProjectFlags) => {
    const projectRoot = projectRootFor(ctx, flags);
    const config = loadConfig({ projectRoot, env: ctx.env });
    const path = ledgerPath(ctx.env);
    const now = new Date();
    const { ledger, movedAside } = await loadLedger(path, now);
    if (movedAside !== null) ctx.err(`ctx: warning: the ledger did not verify; it was moved to ${movedAside}\n`);
    const day = ledgerDay(now);
    const used = tokensUsedOn(ledger, day);
    const cap = config.summaries.dailyTokenCap;
    const report: LedgerReport = {
      path,
      dailyTokenCap: cap,
      today: { day, usedTokens: used, remainingTokens: Math.max(0, cap - used) },
      rows: ledgerRows(ledger),
      movedAside,
    };
    if (flags.json === true) {
      ctx.out(formatJson(report));
      return;
    }
    const header = formatRows([
      ["ledger", path],
      ["today", `${day}: ${used} of ${cap} tokens used, ${report.today.remainingTokens} left`],
    ]);
    const rows = report.rows.map(
      (row) =>
        `${row.day}  ${`${row.provider}/${row.model}`.padEnd(32)} ${String(row.requests).padStart(5)} req  ` +
        `${String(row.inputTokens).padStart(8)} in  ${String(row.outputTokens).padStart(7)} out` +
        (row.refused > 0 ? `  ${row.refused} refused by the cap` : ""),
    );
    ctx.out(`${header}${rows.length === 0 ? "no LLM summaries yet\n" : `${rows.join("\n")}\n`}`);
  });

  addProjectFlags(
    summaries
      .command("clear")
      .description("delete stored summaries (of one session, or all of this project); they are remade when needed")
      .argument("[session]", "session id (default: every session of this project)"),
  ).action(async (session: string | undefined, flags: ProjectFlags) => {
    const projectRoot = projectRootFor(ctx, flags);
    // A transcript path names its session by its file name.
    const sessionId = session === undefined ? undefined : basename(session).replace(/\.jsonl$/, "");
    const report: SummariesClearReport = { removed: await clearSidecars(projectRoot, sessionId) };
    if (flags.json === true) ctx.out(formatJson(report));
    else if (report.removed.length === 0) ctx.out("no stored summaries to clear\n");
    else
      ctx.out(
        `cleared ${report.removed.length} summaries file${report.removed.length === 1 ? "" : "s"}\n${report.removed.join("\n")}\n`,
      );
  });
}
