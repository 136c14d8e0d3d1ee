// The text of `ctx stats` and of the ctx_index tool's `stats` op, from the report (./index-stats-schema.ts): one
// section after another, each a function of the report, so a new part of the report is one more section. Pure.
import type { IndexStatsReport, RebuildRecord } from "./index-stats-schema.ts";

/** How many projects and months the text lists (all of them are in the JSON). */
export const DEFAULT_TOP = 10;

type Section = (report: IndexStatsReport, top: number) => Array<[string, string]>;

const number = (value: number) => value.toLocaleString("en-US");
const iso = (ms: number | null) => (ms === null ? "never" : new Date(ms).toISOString());

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

const overview: Section = (report) => [
  ["index", report.path],
  ["sessions", number(report.sessions)],
  ["chunks", number(report.chunks)],
  ["projects", number(report.projects)],
  ["size", formatBytes(report.bytes)],
  ["last sync", iso(report.lastSyncAt)],
  ["vectors", number(report.vectors)],
  ["integrity", report.integrity],
];

const duplicates: Section = (report) => {
  const { copies, foldedInto, sharedTranscripts } = report.duplicates;
  const folded =
    copies === 0
      ? "none found"
      : `${number(copies)} ${copies === 1 ? "copy" : "copies"} folded into ${number(foldedInto)} session(s)`;
  const shared =
    sharedTranscripts === 0 ? "" : `; ${number(sharedTranscripts)} transcript(s) in several project folders`;
  return [["duplicates", `${folded}${shared}`]];
};

const rebuild: Section = (report) => (report.rebuild === null ? [] : [["reindex", describeRebuild(report.rebuild)]]);

/** "running: 120 of 800 files" / "done 2026-12-02T…: 812 sessions" / "failed …: <error>". */
export function describeRebuild(record: RebuildRecord): string {
  switch (record.outcome) {
    case "running":
      return record.total === 0
        ? `running since ${iso(record.startedAt)} (pid ${record.pid}), listing transcripts`
        : `running since ${iso(record.startedAt)} (pid ${record.pid}): ${number(record.done)} of ${number(record.total)} files`;
    case "done":
      return `done ${iso(record.finishedAt)}: ${number(record.sessions ?? 0)} sessions`;
    case "interrupted":
      return `interrupted ${iso(record.finishedAt)} after ${number(record.done)} of ${number(record.total)} files (ctx index resumes it)`;
    case "stopped":
      return `stopped: its process (pid ${record.pid}) ended after ${number(record.done)} of ${number(record.total)} files (ctx index resumes it)`;
    case "failed":
      return `failed ${iso(record.finishedAt)}: ${record.error ?? "unknown error"}`;
  }
}

/** The first `top` rows, then how many more. */
function listed<T>(items: readonly T[], top: number, row: (item: T) => [string, string]): Array<[string, string]> {
  const rows = items.slice(0, top).map(row);
  if (items.length > top) rows.push(["  …", `${number(items.length - top)} more (the JSON lists all)`]);
  return rows;
}

const projects: Section = (report, top) =>
  report.byProject.length === 0
    ? []
    : [
        ["sessions by project", ""],
        // The count as the label: project folder names are long, and would push every value to the right.
        ...listed(report.byProject, top, (entry): [string, string] => [
          `  ${number(entry.sessions)}`,
          `${entry.project === "" ? "(none)" : entry.project}${entry.lastActiveAt === null ? "" : ` · last ${iso(entry.lastActiveAt).slice(0, 10)}`}`,
        ]),
      ];

/** The newest months: what a person asks about first. */
const months: Section = (report, top) =>
  report.byMonth.length === 0
    ? []
    : [
        ["sessions by month", ""],
        ...listed([...report.byMonth].reverse(), top, (entry): [string, string] => [
          `  ${entry.month}`,
          number(entry.sessions),
        ]),
      ];

export const SECTIONS: readonly Section[] = [overview, duplicates, rebuild, projects, months];

/** The report's rows (`label`, `value`), for cli/output.ts formatRows. */
export function indexStatsRows(report: IndexStatsReport, top = DEFAULT_TOP): Array<[string, string]> {
  return SECTIONS.flatMap((section) => section(report, top));
}

/** The figures before the per-project and per-month lists (the ui's index page draws those as tables). */
export function indexSummaryRows(report: IndexStatsReport): Array<[string, string]> {
  return [overview, duplicates, rebuild].flatMap((section) => section(report, 0));
}

/** The report as aligned `label  value` lines (the MCP tool's text; the CLI prints the rows through formatRows). */
export function renderIndexStats(report: IndexStatsReport, top = DEFAULT_TOP): string {
  if (!report.exists) return `No session index yet (${report.path}): run \`ctx index\` to build it.\n`;
  const rows = indexStatsRows(report, top);
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return `${rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`.trimEnd()).join("\n")}\n`;
}
