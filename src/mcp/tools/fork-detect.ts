// ctx_fork_detect: the past sessions closest to what the person is about to do, ranked by the composite
// score, each with a copy-paste fork command that runs from the session's own folder.
import * as z from "zod/mini";
import { renderForkCandidates, renderNoMatch } from "../../core/search/fork-candidates.ts";
import { defineTool } from "../define-tool.ts";

const ComponentsSchema = z.object({
  bestSimilarity: z.number(),
  averageSimilarity: z.number(),
  chunkRatio: z.number(),
  recency: z.number(),
  chainQuality: z.number(),
  boost: z.number(),
});

export const ForkCandidateSchema = z.object({
  rank: z.int(),
  sessionId: z.string(),
  score: z.number(),
  scorePercent: z.number(),
  components: ComponentsSchema,
  project: z.string(),
  cwd: z.nullable(z.string()),
  updatedAt: z.string(),
  relativeDate: z.string(),
  topic: z.string(),
  preview: z.string(),
  messageCount: z.int(),
  matchedChunks: z.int(),
  transcriptPath: z.string(),
  transcriptExists: z.boolean(),
  expiresInDays: z.nullable(z.number()),
  warning: z.nullable(z.string()),
  forkCommand: z.string(),
  inSessionCommand: z.string(),
});

const RecentSessionSchema = z.object({
  sessionId: z.string(),
  topic: z.string(),
  project: z.string(),
  cwd: z.nullable(z.string()),
  relativeDate: z.string(),
  forkCommand: z.string(),
});

export const ForkDetectOutputSchema = z.object({
  query: z.string(),
  /** The same text as the content: Claude Code hands the model the structured result, so it must say it all. */
  message: z.string(),
  results: z.array(ForkCandidateSchema),
  thresholdPercent: z.number(),
  bestBelowThreshold: z.nullable(ForkCandidateSchema),
  recent: z.array(RecentSessionSchema),
  indexedSessions: z.int(),
});

export const forkDetectTool = defineTool({
  name: "ctx_fork_detect",
  title: "ctx fork detect",
  description:
    "Find the past Claude Code sessions closest to what the user is about to work on, across every project " +
    "(or one). Returns the top sessions with a score (percentage and its parts), when each was last active, its " +
    "topic, a preview of what matched, and a fork command to paste into a terminal " +
    "(`cd '<cwd>' && claude --resume <id> --fork-session`) plus the in-session alternative. Present the top 3 " +
    "and 'None - start fresh' as choices; never run the commands yourself.",
  input: {
    query: z
      .string()
      .check(z.minLength(1), z.maxLength(2_000), z.describe("What the user is about to work on, in their words.")),
    project: z
      .optional(z.string())
      .check(z.describe('"this" for the current project only, a project path, or part of a project folder name.')),
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(20))).check(z.describe("How many sessions (default 5).")),
    since: z.optional(z.string()).check(z.describe("Only sessions active since: ISO date or age like 7d, 3w, 2m.")),
    until: z.optional(z.string()).check(z.describe("Only sessions active until: ISO date or age like 7d, 3w, 2m.")),
  },
  output: ForkDetectOutputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async (input, deps) => {
    const result = await deps.forkDetect({
      query: input.query,
      ...(input.project === undefined ? {} : { project: input.project }),
      ...(input.limit === undefined ? {} : { limit: input.limit }),
      ...(input.since === undefined ? {} : { since: input.since }),
      ...(input.until === undefined ? {} : { until: input.until }),
    });
    const text =
      result.candidates.length > 0
        ? renderForkCandidates(result.query, result.candidates)
        : renderNoMatch(result.query, result.bestBelowThreshold, result.thresholdPercent, result.recent);
    return {
      text,
      structured: {
        query: result.query,
        message: text,
        results: result.candidates,
        thresholdPercent: result.thresholdPercent,
        bestBelowThreshold: result.bestBelowThreshold,
        recent: result.recent,
        indexedSessions: result.indexedSessions,
      },
    };
  },
});
