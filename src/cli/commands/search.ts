// `ctx search "<query>" [--project P] [--limit N] [--since D] [--until D] [--team | --scope S] [--tag T] [--starred] [--json]`: fork detection from the
// shell. People get a ranked list with fork commands; scripts get the ctx_fork_detect tool's result
// (`{"query", "message", "results":[…], …}`, ForkDetectReportSchema).

import type { Readable, Writable } from "node:stream";
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import type { ForkCandidate } from "../../core/search/fork-candidates.ts";
import { MARKER_NAMES, parseMarkerNames } from "../../core/search/memory-markers.ts";
import type { MemoryType } from "../../core/search/model.ts";
import { CtxError } from "../../errors.ts";
import {
  type ForkDetectResult,
  forkDetectReportOf,
  renderForkDetect,
  runForkDetect,
} from "../../search/fork-detect.ts";
import { parseSearchScope, type SearchScope } from "../../search/search-scope.ts";
import { loadCachedConfig } from "../../store/config/config-cache.ts";
import { teamCandidatesPort } from "../../team/search-port.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import { colorsFor, highlightSearchList } from "../color.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { collectTags } from "../tag-flags.ts";

interface SearchOptions {
  project?: string;
  limit?: string;
  since?: string;
  until?: string;
  claudeDir?: string;
  refresh: boolean;
  pick: boolean;
  json?: boolean;
  team?: boolean;
  scope?: string;
  marker?: string;
  tag?: string[];
  starred?: boolean;
}

export function registerSearchCommand(program: Command, ctx: CliContext): void {
  program
    .command("search")
    .description(COMMANDS.search.description)
    .argument("<query...>", "what you are about to work on")
    .option("--project <name>", 'only one project: "this", a path, or part of a project folder name')
    .option("--limit <n>", "how many sessions (1-50)", "5")
    .option("--since <when>", "only sessions active since: ISO date or age (7d, 3w, 2m, 1y)")
    .option("--until <when>", "only sessions active until: ISO date or age")
    .option("--claude-dir <dir>", "Claude Code's folder (default: $CLAUDE_CONFIG_DIR or ~/.claude)")
    .option("--no-refresh", "search the index as it is, without catching up on new transcripts first")
    .option("--no-pick", "on a terminal, print the list instead of offering the picker")
    .option("--team", "also search the team's sessions, ranked with yours (the same as --scope all)")
    .option("--scope <scope>", "local, team or all (default: the search.scope setting, local)")
    .option(
      "--marker <name>",
      "only sessions whose matching chunks carry a memory marker: working-solution, pattern or waiting (comma-separated)",
    )
    .option(
      "--tag <tag>",
      "only sessions you tagged with it (`ctx session tag`; repeat for all of several)",
      collectTags,
    )
    .option("--starred", "only sessions you starred (`ctx session star`)")
    .option("--json", "print JSON for scripts")
    // `ctx search docker -kubernetes`: a single-dash word is the query's (an exclusion, or a flag like `-p` in a code
    // query); an unknown `--option` is still refused below.
    .allowUnknownOption()
    .action(async (words: string[], options: SearchOptions) => {
      const unknown = words.find((word) => /^--[A-Za-z][\w-]*(?:=.*)?$/u.test(word));
      if (unknown !== undefined) {
        throw new CtxError("USAGE", `unknown option '${sanitizeLogLine(unknown)}'`, {
          hint: 'see ctx search --help; to search for the words themselves, quote them after --: ctx search -- "--force flag"',
        });
      }
      const query = words.join(" ");
      const limit = parseLimit(options.limit ?? "5");
      const scope = scopeOf(options);
      const projectRoot = findProjectRoot(ctx.cwd, ctx.env);
      // Through the config cache, as the hooks read it: a config seen before loads no zod (bench/run.ts cli).
      const config = await loadCachedConfig({ projectRoot, env: ctx.env });
      const result = await runForkDetect(
        {
          query,
          limit,
          ...(options.project === undefined ? {} : { project: options.project }),
          ...(options.since === undefined ? {} : { since: options.since }),
          ...(options.until === undefined ? {} : { until: options.until }),
          ...(scope === undefined ? {} : { scope }),
          ...(options.marker === undefined ? {} : { markers: markersOf(options.marker) }),
          ...(options.tag === undefined ? {} : { tags: options.tag }),
          ...(options.starred === true ? { starred: true } : {}),
        },
        {
          config,
          env: ctx.env,
          projectRoot,
          now: () => Date.now(),
          teamCandidates: teamCandidatesPort(config, ctx.env),
          ...(options.claudeDir === undefined ? {} : { claudeDir: options.claudeDir }),
          ...(options.refresh ? {} : { refreshBudgetMs: 0 }),
          recordOffer: { via: "cli", warn: (message) => ctx.err(`ctx: ${sanitizeLogLine(message)}\n`) },
          // Run from Claude Code's Bash tool, the asking session is not a candidate for its own fork.
          ...(ctx.env.CLAUDE_CODE_SESSION_ID ? { currentSessionId: ctx.env.CLAUDE_CODE_SESSION_ID } : {}),
        },
      );
      // One line each, on stderr: the results on stdout stay what they are (the --json form also lists them).
      for (const notice of result.notices) ctx.err(`ctx: ${sanitizeLogLine(notice)}\n`);
      if (result.refresh?.interrupted === true) {
        ctx.err("ctx: the index is still catching up; results may miss recent sessions (run `ctx index`)\n");
      }
      // No session at all exits 1 in both forms (like grep), so scripts can test the status alone.
      // A query with nothing to search but its time words ("what did I do yesterday") answers with the sessions listed.
      const listed = result.understood?.listing === true && result.recent.length > 0;
      if (result.candidates.length === 0 && !listed) {
        if (result.indexedSessions === 0) ctx.err("ctx: the index is empty: run `ctx index` first\n");
        ctx.setExitCode(1);
      }
      if (options.json === true) {
        ctx.out(formatJson(forkDetectReportOf(result)));
        return;
      }
      if (ctx.terminal !== undefined && options.pick && result.candidates.length > 0) {
        await pickAndAct(ctx, query, result.candidates);
        return;
      }
      // On a terminal titles are bold, weak matches faint and fork commands green (unless NO_COLOR), painted on
      // the sanitized text; piped output stays plain text.
      const colors = colorsFor(ctx);
      ctx.out(`${renderForkDetect(fieldsOnOneLine({ ...result, notices: [] }))}\n`, (safe) =>
        highlightSearchList(safe, colors),
      );
    });
}

async function pickAndAct(ctx: CliContext, query: string, candidates: readonly ForkCandidate[]): Promise<void> {
  const [{ actOnFork, findClipboardTool, pickForkCandidate, PANE_LINES }, preview] = await Promise.all([
    import("../search-picker.ts"),
    import("../../search/session-preview.ts"),
  ]);
  const terminal = ctx.terminal as NonNullable<CliContext["terminal"]>;
  const clipboard = findClipboardTool(ctx.env, process.platform);
  // The picker's pane: each local session's preview, read from its transcript while the person looks at the list.
  const index = preview.openIndexForPreview(ctx.env);
  let pick: Awaited<ReturnType<typeof pickForkCandidate>>;
  try {
    pick = await pickForkCandidate(query, candidates, {
      input: terminal.input as Readable,
      output: terminal.output as Writable,
      clipboard,
      preview: (candidate) =>
        candidate.team !== undefined && !candidate.team.local
          ? Promise.resolve(null)
          : preview.boundedPreviewOf(index, candidate.sessionId, {
              atUuid: candidate.matchUuid ?? null,
              maxBytes: PANE_LINES * 160,
              brief: true,
            }),
    });
  } finally {
    index.close();
  }
  if (pick === null) {
    ctx.err("ctx: nothing picked\n");
    ctx.setExitCode(130);
    return;
  }
  // The picker runs the plain fork command (the whole session): no point.
  if (pick.action === "run") {
    const { recordForkRun } = await import("../fork-run-log.ts");
    await recordForkRun(ctx, "picker", pick.candidate.sessionId, null);
  }
  await actOnFork(ctx, pick.action, pick.candidate, clipboard);
}

/** Every text field of the result on one line (a newline in a folder's name or a title is shown as `\n`), so a
 *  field can never forge a line of the list, such as a `fork:` line of its own. */
function fieldsOnOneLine(result: ForkDetectResult): ForkDetectResult {
  return {
    ...result,
    query: onOneLine(result.query),
    candidates: onOneLine(result.candidates),
    recent: onOneLine(result.recent),
    ...(result.understood === undefined ? {} : { understood: onOneLine(result.understood) }),
  };
}

function onOneLine<T>(value: T): T {
  if (typeof value === "string") return sanitizeLogLine(value) as T;
  if (Array.isArray(value)) return value.map(onOneLine) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, onOneLine(field)])) as T;
  }
  return value;
}

/** `--team` is `--scope all`; both at once must agree. Absent: the search.scope setting decides. */
function scopeOf(options: SearchOptions): SearchScope | undefined {
  const named = options.scope === undefined ? undefined : parseSearchScope(options.scope);
  if (options.team === true) {
    if (named !== undefined && named !== "all") {
      throw new CtxError("USAGE", `--team means --scope all, not --scope ${named}`, { hint: "give one of them" });
    }
    return "all";
  }
  return named;
}

function parseLimit(text: string): number {
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) {
    throw new CtxError("USAGE", `--limit must be a whole number from 1 to 50, not "${text}"`);
  }
  return limit;
}

function markersOf(text: string): MemoryType[] {
  const markers = parseMarkerNames([text]);
  if (markers === null || markers.length === 0) {
    throw new CtxError("USAGE", `--marker "${text}" names no memory marker`, {
      hint: `use ${Object.keys(MARKER_NAMES).join(", ")} (several: comma-separated)`,
    });
  }
  return markers;
}
