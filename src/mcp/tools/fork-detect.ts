// ctx_fork_detect: the past sessions closest to what the person is about to do, ranked by relevance
// (docs/search.md), each with a copy-paste fork command that runs from the session's own folder.
import * as z from "zod/mini";
import { DEFAULT_PREVIEWS, forkDetectReportOf, MAX_PREVIEWS } from "../../search/fork-detect.ts";
import { ForkDetectReportSchema } from "../../search/fork-report-schema.ts";
import { SEARCH_SCOPES } from "../../search/search-scope.ts";
import { defineTool } from "../define-tool.ts";

export const forkDetectTool = defineTool({
  name: "ctx_fork_detect",
  title: "ctx fork detect",
  description:
    "Find the past Claude Code sessions closest to what the user is about to work on, across every project " +
    "(or one). Returns the top sessions with a score (percentage and its parts), when each was last active, its " +
    "topic, a preview of what matched, and a fork command to paste into a terminal " +
    "(`cd <cwd> && claude --resume <id> --fork-session`, each word shell-quoted) plus the in-session alternative. With a " +
    "team joined, `scope` adds teammates' sessions (each with its author; `ctx fork <id>` fetches one). Present the top 3 " +
    "and 'None - start fresh' as choices; never run the commands yourself.",
  input: {
    query: z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(2_000),
        z.describe(
          'What the user is about to work on, in their words. Time words filter ("last week", "yesterday", "since Monday"), and "-word" or "not about X" leaves sessions out; the result says what it understood.',
        ),
      ),
    project: z
      .optional(z.string())
      .check(z.describe('"this" for the current project only, a project path, or part of a project folder name.')),
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(20))).check(z.describe("How many sessions (default 5).")),
    since: z.optional(z.string()).check(z.describe("Only sessions active since: ISO date or age like 7d, 3w, 2m.")),
    until: z.optional(z.string()).check(z.describe("Only sessions active until: ISO date or age like 7d, 3w, 2m.")),
    markers: z
      .optional(z.array(z.enum(["WORKING_SOLUTION", "PATTERN", "WAITING"])))
      .check(
        z.describe(
          "Only sessions whose matching chunks carry one of these memory markers: a solution that worked, a pattern worth reusing, something left waiting.",
        ),
      ),
    preview: z
      .optional(z.union([z.boolean(), z.int().check(z.minimum(0), z.maximum(MAX_PREVIEWS))]))
      .check(
        z.describe(
          `Add a preview of the top results (a few KB each: dates, lineage, then the session's prompts, short replies, tools and files, the matching exchange marked): true for the top ${DEFAULT_PREVIEWS}, a number for that many (at most ${MAX_PREVIEWS}). Use it when the user wants to know what a session holds before forking it.`,
        ),
      ),
    tags: z
      .optional(z.array(z.string().check(z.maxLength(200))).check(z.maxLength(20)))
      .check(z.describe("Only sessions the user tagged with every one of these (ctx_library).")),
    starred: z.optional(z.boolean()).check(z.describe("Only sessions the user starred.")),
    scope: z
      .optional(z.enum(SEARCH_SCOPES))
      .check(
        z.describe(
          'Where to search: "local" (this machine), "team" (the team server: teammates\' sessions) or "all" (both, ' +
            "ranked together). Default: the user's search.scope setting.",
        ),
      ),
  },
  output: ForkDetectReportSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async (input, deps) => {
    const result = await deps.forkDetect({
      query: input.query,
      ...(input.project === undefined ? {} : { project: input.project }),
      ...(input.limit === undefined ? {} : { limit: input.limit }),
      ...(input.since === undefined ? {} : { since: input.since }),
      ...(input.until === undefined ? {} : { until: input.until }),
      ...(input.scope === undefined ? {} : { scope: input.scope }),
      ...(input.markers === undefined ? {} : { markers: input.markers }),
      ...(input.preview === undefined ? {} : { preview: input.preview }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
      ...(input.starred === true ? { starred: true } : {}),
    });
    const report = forkDetectReportOf(result);
    return { text: report.message, structured: report };
  },
});
