// `ctx forks [--json] [--project P] [--since D]`: the forks made from your sessions (docs/forks.md), newest first,
// each with its source, the search that offered it (if one did), how ctx ran it, and its outcome read from its
// transcript; then the search success rate and the verdicts.
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import { parseTimeBound } from "../../core/search/fork-query.ts";
import { CtxError } from "../../errors.ts";
import { loadForkHistory } from "../../search/fork-history.ts";
import { formatForks } from "../../search/fork-history-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

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
