// `ctx stats [--top N] [--check] [--json]`: what the session index holds: sessions, chunks, projects, size, last sync,
// vectors, the duplicates found, the file's integrity with --check (it reads the whole file: seconds at 100,000
// sessions, where the rest is read from the index's running counts), the last `ctx reindex`, and sessions per project and per month (the first N in
// the text, all of them in the JSON: core/search/index-stats-schema.ts, the same report ctx_index's `stats` op gives);
// and fork history's counts in a section of their own (`forks`: search/fork-history-schema.ts, docs/forks.md).
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import type { IndexStatsReport } from "../../core/search/index-stats-schema.ts";
import { DEFAULT_TOP, indexStatsRows } from "../../core/search/index-stats-text.ts";
import { CtxError } from "../../errors.ts";
import { loadForkHistory } from "../../search/fork-history.ts";
import type { ForkStats } from "../../search/fork-history-schema.ts";
import { formatForkStats } from "../../search/fork-history-text.ts";
import { INTEGRITY_NOT_CHECKED, readIndexStatsReport } from "../../search/index-stats.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";

export function registerStatsCommand(program: Command, ctx: CliContext): void {
  program
    .command("stats")
    .description(COMMANDS.stats.description)
    .option("--top <n>", `projects and months listed in the text (default ${DEFAULT_TOP}; --json lists all)`)
    .option(
      "--check",
      "also check the whole file's integrity (PRAGMA quick_check: reads every page, slow on a big index)",
    )
    .option("--json", "print JSON for scripts")
    .action(async (options: { json?: boolean; top?: string; check?: boolean }) => {
      const top = parseTop(options.top);
      const report = readIndexStatsReport(resolveIndexPath(ctx.env), ctx.env, {
        checkIntegrity: options.check === true,
      });
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
          : `${formatIndexStats(report, top)}${forks === null ? "" : `\nforks (ctx forks lists them)\n${formatForkStats(forks)}`}`,
      );
      if (forksFailure !== null) throw forksFailure;
      // The figures are printed either way (they may still help); a damaged file is an error to act on.
      if (report.exists && report.integrity !== "ok" && report.integrity !== INTEGRITY_NOT_CHECKED) {
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

function parseTop(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TOP;
  const top = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(top) || top < 1) {
    throw new CtxError("USAGE", `--top takes a whole number of at least 1, not ${JSON.stringify(value.slice(0, 40))}`, {
      hint: "e.g. ctx stats --top 20",
    });
  }
  return top;
}

export function formatIndexStats(report: IndexStatsReport, top = DEFAULT_TOP): string {
  if (!report.exists) return `No session index yet (${report.path}): run \`ctx index\` to build it.\n`;
  return formatRows(indexStatsRows(report, top));
}
