// `ctx forks [--json] [--project P] [--since D]`: the forks made from your sessions (docs/forks.md), newest first,
// each with its source, the search that offered it (if one did), how ctx ran it, and its outcome read from its
// transcript; then the search success rate and the verdicts.
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import { parseTimeBound } from "../../core/search/fork-query.ts";
import { CtxError } from "../../errors.ts";
import { loadForkHistory } from "../../search/fork-history.ts";
import type { ForkRecordReport, ForkStats, ForksReport } from "../../search/fork-history-schema.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";

interface ForksOptions {
  json?: boolean;
  project?: string;
  since?: string;
}

export function registerForksCommand(program: Command, ctx: CliContext): void {
  program
    .command("forks")
    .description(COMMANDS.forks.description)
    .option("--project <name>", 'only one project: "this", a path, or part of a project folder name')
    .option("--since <when>", "only forks and searches since: ISO date or age (7d, 3w, 2m, 1y)")
    .option("--json", "print JSON for scripts")
    .action(async (options: ForksOptions) => {
      const since = sinceOf(options.since);
      const report = await loadForkHistory({
        env: ctx.env,
        projectRoot: findProjectRoot(ctx.cwd, ctx.env),
        ...(options.project === undefined ? {} : { project: options.project }),
        ...(since === undefined ? {} : { since }),
      });
      ctx.out(options.json === true ? formatJson(report) : formatForks(report));
    });
}

export function sinceOf(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const at = parseTimeBound(text, Date.now());
  if (at === null) {
    throw new CtxError("USAGE", `--since "${text}" is not a date`, {
      hint: "use an ISO date (2026-10-01) or an age such as 7d, 3w, 2m, 1y",
    });
  }
  return at;
}

/** The list as text: one block per fork, then the counts. Every field is one sanitized line. */
export function formatForks(report: ForksReport): string {
  if (report.forks.length === 0) {
    return `No forks found in the session index.\n${formatForkStats(report.stats)}`;
  }
  const blocks = report.forks.map(formatFork);
  return `${blocks.join("\n\n")}\n\n${formatForkStats(report.stats)}`;
}

function formatFork(fork: ForkRecordReport): string {
  const o = fork.outcome;
  const files = o.filesModifiedCount === 0 ? "no files modified" : `${o.filesModifiedCount} file(s) modified`;
  const lines = [
    `${fork.sessionId}  ${o.verdict}`,
    `   from ${fork.source}${fork.point === null ? "" : ` at ${fork.point}`} · ${fork.at} · ${fork.cwd ?? fork.project}`,
    fork.offer === null
      ? "   not from a search"
      : `   offered by ${fork.offer.via === "cli" ? "ctx search" : "ctx_fork_detect"} ${fork.offer.at}: "${fork.offer.query}"${fork.ranBy === null ? "" : ` · run by ${fork.ranBy === "picker" ? "the picker" : "ctx fork"}`}`,
    `   ${o.prompts} prompt(s), ${o.replies} repl(ies), ${formatDuration(o.durationMs)} · ${files}${o.forkedAgain ? " · forked again" : ""}`,
  ];
  if (o.filesModified.length > 0)
    lines.push(`   files: ${o.filesModified.slice(0, 5).join(", ")}${o.filesModifiedCount > 5 ? ", …" : ""}`);
  return lines.map(sanitizeLogLine).join("\n");
}

export function formatForkStats(stats: ForkStats): string {
  const rate =
    stats.successRate === null
      ? "no search has offered a session yet"
      : `${Math.round(stats.successRate * 100)}% (${stats.searchesFollowedByFork} of ${stats.searchesWithOffers} searches followed by a fork)`;
  const v = stats.verdicts;
  const rows: Array<[string, string]> = [
    ["searches", String(stats.searches)],
    ["search success rate", rate],
    ["forks", `${stats.forks} (${stats.forksFromSearch} from a search)`],
    ["outcomes", `${v["paid-off"]} paid off, ${v.continued} continued, ${v.abandoned} abandoned, ${v.unknown} unknown`],
  ];
  if (stats.skippedLogLines > 0) rows.push(["skipped log lines", String(stats.skippedLogLines)]);
  return formatRows(rows);
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}
