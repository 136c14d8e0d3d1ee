// `ctx forks --json`, the `forks` section of `ctx stats --json`, and the fork list the MCP server gives Claude, as
// zod schemas (docs/forks.md). ./fork-history.ts builds them and imports their types only.
import * as z from "zod/mini";

const VerdictSchema = z.enum(["paid-off", "abandoned", "continued", "unknown"]);

export const ForkRecordSchema = z.object({
  /** The new session the fork became. */
  sessionId: z.string(),
  /** The session it was forked from. */
  source: z.string(),
  project: z.string(),
  cwd: z.nullable(z.string()),
  /** When it was made (ISO): its first line of its own. */
  at: z.string(),
  /** The fork point ctx offered, when the fork was cut there (`--resume-session-at`); else null. */
  point: z.nullable(z.string()),
  /** Made after a search (`ctx search` or `ctx_fork_detect`) offered its source within a day; false for a fork
   *  made outside ctx (a plain `claude --resume --fork-session`, `/branch`). */
  fromSearch: z.boolean(),
  /** The search: when, which, its words (redacted; null when only the hash was kept) and their hash. */
  offer: z.nullable(
    z.object({ at: z.string(), via: z.enum(["cli", "mcp"]), query: z.nullable(z.string()), queryHash: z.string() }),
  ),
  /** How ctx ran it: the search picker or `ctx fork`; null when the person ran the printed command. */
  ranBy: z.nullable(z.enum(["picker", "fork"])),
  outcome: z.object({
    verdict: VerdictSchema,
    /** The person's prompts after the copy. */
    prompts: z.int(),
    replies: z.int(),
    filesModified: z.array(z.string()),
    filesModifiedCount: z.int(),
    durationMs: z.number(),
    forkedAgain: z.boolean(),
  }),
});
export type ForkRecordReport = z.infer<typeof ForkRecordSchema>;

/** The counts `ctx stats` shows (its `forks` section) and `ctx forks` ends with. */
export const ForkStatsSchema = z.object({
  searches: z.int(),
  searchesWithOffers: z.int(),
  searchesFollowedByFork: z.int(),
  /** searchesFollowedByFork / searchesWithOffers (0..1); null before any search offered a session. */
  successRate: z.nullable(z.number()),
  forks: z.int(),
  forksFromSearch: z.int(),
  verdicts: z.object({ "paid-off": z.int(), abandoned: z.int(), continued: z.int(), unknown: z.int() }),
  /** Fork-log lines that were not records (skipped). */
  skippedLogLines: z.int(),
});
export type ForkStats = z.infer<typeof ForkStatsSchema>;

export const ForksReportSchema = z.object({
  forks: z.array(ForkRecordSchema),
  stats: ForkStatsSchema,
});
export type ForksReport = z.infer<typeof ForksReportSchema>;
