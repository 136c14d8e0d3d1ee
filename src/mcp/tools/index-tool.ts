// ctx_index: the session index, for /stats and /reindex. `stats`: what it holds (the report of `ctx stats --json`:
// sessions per project and month, size, last sync, duplicates, the last rebuild). `reindex`: starts the rebuild
// `ctx reindex` does, as a background process (src/search/sync/rebuild-job.ts), and answers at once; calling it again
// while it runs reports its progress instead of starting another.
import * as z from "zod/mini";
import { IndexStatsReportSchema, RebuildRecordSchema } from "../../core/search/index-stats-schema.ts";
import { describeRebuild, renderIndexStats } from "../../core/search/index-stats-text.ts";
import { readIndexStatsReport } from "../../search/index-stats.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { startIndexRebuild } from "../../search/sync/rebuild-job.ts";
import { defineTool } from "../define-tool.ts";

export const IndexToolInputSchema = {
  op: z
    .enum(["stats", "reindex"])
    .check(
      z.describe(
        "stats: what the session index holds (sessions per project and month, size, last sync, duplicates, the last " +
          "rebuild). reindex: start rebuilding it from the transcripts in the background; call again to see progress.",
      ),
    ),
  top: z
    .optional(z.int().check(z.minimum(1), z.maximum(1000)))
    .check(z.describe("stats: projects and months listed in the text (default 10; the structured result has all).")),
  check: z
    .optional(z.boolean())
    .check(
      z.describe(
        "stats: also check the index file's integrity (reads the whole file: seconds on a large index). Only when a " +
          "search failed or the person asks.",
      ),
    ),
};

export const IndexToolOutputSchema = z.object({
  op: z.enum(["stats", "reindex"]),
  /** stats: the report. */
  stats: z.optional(IndexStatsReportSchema),
  /** reindex: whether this call started a rebuild (false: one was already running), and its record. */
  started: z.optional(z.boolean()),
  rebuild: z.optional(RebuildRecordSchema),
});

export const indexTool = defineTool({
  name: "ctx_index",
  title: "ctx session index",
  description:
    "The session index that ctx_fork_detect searches. op `stats`: sessions per project and per month, index size, " +
    "last sync, duplicate sessions found, the last rebuild. op `reindex`: rebuild the index from Claude Code's " +
    "transcripts, started in the background (it answers at once; searches keep working meanwhile on what is " +
    "indexed); call it again, or op `stats`, to see its progress.",
  input: IndexToolInputSchema,
  output: IndexToolOutputSchema,
  // Destructive: a rebuild empties the index first (it is a cache of the transcripts, filled again as it runs).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handle: async ({ op, top, check }, deps) => {
    const env = deps.env ?? process.env;
    if (op === "stats") {
      const stats = readIndexStatsReport(resolveIndexPath(env), env, { checkIntegrity: check === true });
      return { text: renderIndexStats(stats, top), structured: { op, stats } };
    }
    const { started, record } = await startIndexRebuild({
      env,
      cliPath: deps.cli?.cliPath ?? "",
      ...(deps.cli === undefined ? {} : { execPath: deps.cli.execPath }),
    });
    const text = started
      ? `Started rebuilding the session index in the background (pid ${record.pid}): ${describeRebuild(record)}. ` +
        "Searches use what is indexed so far; call ctx_index again to see its progress."
      : `A rebuild is already running: ${describeRebuild(record)}.`;
    return { text, structured: { op, started, rebuild: record } };
  },
});
