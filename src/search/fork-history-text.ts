// Fork history as text (docs/forks.md): `ctx forks`, the `forks` part of `ctx stats`, and what the MCP server gives
// Claude. Every field is one line through sanitizeLogLine: a query or a folder holding a newline or an escape
// sequence cannot forge a line or reach a terminal.
import { sanitizeLogLine } from "../terminal-text.ts";
import type { ForkRecordReport, ForkStats, ForksReport } from "./fork-history-schema.ts";

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
      : `   offered by ${fork.offer.via === "cli" ? "ctx search" : "ctx_fork_detect"} ${fork.offer.at}: ${fork.offer.query === null ? `query ${fork.offer.queryHash.slice(0, 12)} (words not kept)` : `"${fork.offer.query}"`}${fork.ranBy === null ? "" : ` · run by ${fork.ranBy === "picker" ? "the picker" : "ctx fork"}`}`,
    `   ${o.prompts} prompt(s), ${o.replies} repl(ies), ${formatDuration(o.durationMs)} · ${files}${o.forkedAgain ? " · forked again" : ""}`,
  ];
  if (o.filesModified.length > 0)
    lines.push(`   files: ${o.filesModified.slice(0, 5).join(", ")}${o.filesModifiedCount > 5 ? ", …" : ""}`);
  return lines.map(sanitizeLogLine).join("\n");
}

export function formatForkStats(stats: ForkStats): string {
  return formatLabelled(forkStatsRows(stats));
}

/** The fork counts as `label`, `value` rows: `ctx stats`'s forks section, and the ui's index page. */
export function forkStatsRows(stats: ForkStats): Array<[string, string]> {
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
  return rows;
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/** `label  value` rows, the labels padded to one width (the CLI's formatRows, which this layer cannot import). */
function formatLabelled(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${sanitizeLogLine(value)}\n`).join("");
}
