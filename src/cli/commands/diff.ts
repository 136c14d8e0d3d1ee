// `ctx diff [--name <n>]`: the files the saved context tracks, compared with the disk now: modified and
// deleted since the save (by content hash), and files added beside them.
import { relative } from "node:path";
import type { Command } from "commander";
import { shellCommand } from "../../core/shell/quote.ts";
import { CtxError } from "../../errors.ts";
import { type DiffReport, diffContext, diffReportOf } from "../../store/context/diff.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";

export function registerDiffCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("diff")
      .description(COMMANDS.diff.description)
      .option("--name <name>", "compare a named save (default: the current state)"),
  ).action(async (flags: ProjectFlags & { name?: string }) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const result = await diffContext(
      deps,
      flags.name === undefined ? { kind: "current" } : { kind: "save", name: flags.name },
    );
    if (result === null) {
      throw new CtxError(
        "NOT_FOUND",
        flags.name === undefined
          ? "nothing saved for this project yet"
          : `no save named "${flags.name}" in this project`,
        {
          hint: `\`${shellCommand(["ctx", "save", ...(flags.name === undefined ? [] : ["--name", flags.name])])}\` saves the current session's context`,
        },
      );
    }
    const report = diffReportOf(result);
    ctx.out(flags.json ? formatJson(report) : formatDiffReport(report, deps.projectRoot));
  });
}

function formatDiffReport(report: DiffReport, projectRoot: string): string {
  const rows: [string, string][] = [
    ...report.modified.map((path): [string, string] => ["modified", relative(projectRoot, path)]),
    ...report.deleted.map((path): [string, string] => ["deleted", relative(projectRoot, path)]),
    ...report.added.map((path): [string, string] => ["added", relative(projectRoot, path)]),
  ];
  const none = rows.length === 0 ? "no tracked file changed, and none was added beside them\n" : "";
  return (
    `compared with ${report.origin}, saved ${report.savedAt}:\n${formatRows(rows)}${none}` +
    `unchanged: ${report.unchanged.length}; not compared (no hash): ${report.untracked.length}\n`
  );
}
