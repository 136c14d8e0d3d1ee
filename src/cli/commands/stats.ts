// `ctx stats [--json]`: what the session index holds (sessions, chunks, projects, size, last sync, vectors), and
// fork history's counts in a section of their own (`forks`: docs/forks.md).
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import { CtxError } from "../../errors.ts";
import { loadForkHistory } from "../../search/fork-history.ts";
import type { ForkStats } from "../../search/fork-history-schema.ts";
import { formatForkStats } from "../../search/fork-history-text.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { type IndexStats, integrityProblems, openSessionIndex } from "../../search/session-index/session-index.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";

export type IndexStatsReport = { path: string; exists: boolean } & IndexStats & {
    /** `PRAGMA quick_check` of the whole file: "ok", or what SQLite found damaged. */
    integrity: string;
  };

export function registerStatsCommand(program: Command, ctx: CliContext): void {
  program
    .command("stats")
    .description(COMMANDS.stats.description)
    .option("--json", "print JSON for scripts")
    .action(async (options: { json?: boolean }) => {
      const report = readIndexStats(resolveIndexPath(ctx.env));
      // Fork history reads ctx's own log: a log it cannot read (a link, a pipe) leaves `forks` null and is the error
      // after the index's figures, which are printed all the same.
      let forks: ForkStats | null = null;
      let forksFailure: unknown = null;
      try {
        forks = await readForkStats(ctx);
      } catch (error) {
        forksFailure = error;
      }
      ctx.out(
        options.json === true
          ? formatJson({ ...report, forks })
          : `${formatIndexStats(report)}${forks === null ? "" : `\nforks (ctx forks lists them)\n${formatForkStats(forks)}`}`,
      );
      if (forksFailure !== null) throw forksFailure;
      // The figures are printed either way (they may still help); a damaged file is an error to act on.
      if (report.exists && report.integrity !== "ok") {
        throw new CtxError("INDEX_CORRUPT", `the session index ${report.path} is damaged: ${report.integrity}`, {
          hint: "run `ctx reindex` (the damaged file is moved aside and the index built again)",
        });
      }
    });
}

/** The `forks` section (search/fork-history-schema.ts ForkStatsSchema): the search success rate and the outcomes. */
export async function readForkStats(ctx: CliContext): Promise<ForkStats> {
  return (await loadForkHistory({ env: ctx.env, projectRoot: findProjectRoot(ctx.cwd, ctx.env) })).stats;
}

export function readIndexStats(path: string): IndexStatsReport {
  if (!existsSync(path)) {
    return {
      path,
      exists: false,
      sessions: 0,
      chunks: 0,
      projects: 0,
      bytes: 0,
      lastSyncAt: null,
      vectors: 0,
      integrity: "ok",
    };
  }
  const index = openSessionIndex(path, { readonly: true });
  try {
    // The structure first: counts read from a damaged file may be wrong without any error.
    const problems = integrityProblems(index);
    return { path, exists: true, ...index.stats(), integrity: problems.length === 0 ? "ok" : problems.join("; ") };
  } finally {
    index.close();
  }
}

export function formatIndexStats(report: IndexStatsReport): string {
  if (!report.exists) return `No session index yet (${report.path}): run \`ctx index\` to build it.\n`;
  const number = (value: number) => value.toLocaleString("en-US");
  return formatRows([
    ["index", report.path],
    ["sessions", number(report.sessions)],
    ["chunks", number(report.chunks)],
    ["projects", number(report.projects)],
    ["size", formatBytes(report.bytes)],
    ["last sync", report.lastSyncAt === null ? "never" : new Date(report.lastSyncAt).toISOString()],
    ["vectors", number(report.vectors)],
    ["integrity", report.integrity],
  ]);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
