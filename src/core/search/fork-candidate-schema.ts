// The shapes fork detection reports (`ctx search --json`, the ctx_fork_detect tool's output), one zod schema each,
// from which their types are inferred. Apart from the code that builds them (./fork-candidates.ts, ./model.ts), which
// imports their types only: a search loads no zod (bench/run.ts cli); the MCP tool loads the schemas.
import * as z from "zod/mini";

/**
 * The composite score's parts (each 0..1 except boost and multiplier, both >= 1); fork-detect reports them.
 * `relevance` is what people see as the percentage and what `search.minSimilarity` is compared with;
 * `multiplier` is the near-tie lift from recency and chain quality (docs/search.md).
 */
export const ScoreComponentsSchema = z.object({
  relevance: z.number(),
  bestSimilarity: z.number(),
  passageSimilarity: z.number(),
  averageSimilarity: z.number(),
  chunkRatio: z.number(),
  /** What the person typed in the session's best chunks, on the query; null when not measured (its weight is 0). */
  promptSimilarity: z.nullable(z.number()),
  /** The best chunk on the query's pseudo-relevance feedback terms; null when no feedback terms were found. */
  feedbackSimilarity: z.nullable(z.number()),
  /** 1 when the session was active on a date the query names, 0 when not; null when the query names no date. */
  namedDate: z.nullable(z.number()),
  recency: z.number(),
  chainQuality: z.number(),
  boost: z.number(),
  multiplier: z.number(),
});
export type ScoreComponents = z.infer<typeof ScoreComponentsSchema>;

/** A team result's origin (docs/team.md "Search"); absent on a session found only in the local index. */
export const TeamOriginSchema = z.object({
  /** The author's handle in the team. */
  author: z.string(),
  /** The project's identity on the team server (`github.com/acme/app[/<path>]`). */
  project: z.string(),
  branch: z.nullable(z.string()),
  /** Its redacted transcript is on the server: `ctx fork` can fetch it. */
  forkable: z.boolean(),
  /** The same session is in this machine's index: it forks as a local session. */
  local: z.boolean(),
  /** The author's own tags and note on it (docs/library.md "Team"); absent from a server that keeps none. */
  labels: z.optional(z.array(z.string())),
  note: z.optional(z.nullable(z.string())),
});

export const ForkCandidateSchema = z.object({
  rank: z.int(),
  sessionId: z.string(),
  /**
   * Relevance, 0..1: what `search.minSimilarity` is compared with; `scorePercent` is the same, rounded, for people (a
   * weak match's rounded down).
   */
  score: z.number(),
  scorePercent: z.number(),
  /** Below `search.minSimilarity`: listed beneath the "weak matches" line. */
  weak: z.boolean(),
  /** The order: relevance × the near-tie multiplier (recency, chain quality), see `components`. */
  rankScore: z.number(),
  components: ScoreComponentsSchema,
  project: z.string(),
  cwd: z.nullable(z.string()),
  updatedAt: z.string(),
  relativeDate: z.string(),
  topic: z.string(),
  preview: z.string(),
  messageCount: z.int(),
  matchedChunks: z.int(),
  /** The memory markers that lifted it (the boost), strongest first, each with the chunk it came from. */
  markers: z.array(z.object({ type: z.enum(["WORKING_SOLUTION", "PATTERN", "WAITING"]), chunkIndex: z.int() })),
  transcriptPath: z.string(),
  transcriptExists: z.boolean(),
  /** Days until Claude Code's cleanup sweep may delete the transcript; null when it is already gone. */
  expiresInDays: z.nullable(z.number()),
  warning: z.nullable(z.string()),
  forkCommand: z.string(),
  /** Forks at the end of the best-matching exchange (`--resume-session-at`); null when its line is unknown. */
  forkAtCommand: z.nullable(z.string()),
  inSessionCommand: z.string(),
  /** Sessions this one was forked from, and the forks made from it (src/core/search/lineage.ts). */
  parents: z.array(z.string()),
  forks: z.array(z.string()),
  chainQuality: z.number(),
  /** Set on a session from the team server. */
  team: z.optional(TeamOriginSchema),
  /** The uuid of the best-matching chunk's last line (`ctx show <id> --at <it>` marks it); null when unknown. */
  matchUuid: z.optional(z.nullable(z.string())),
  /** A bounded preview of the session as text (docs/preview.md), when the search asked for one (`preview`). */
  sessionPreview: z.optional(z.string()),
  /** The person's star, tags and note on the session (`ctx session`, the session library); a teammate's is theirs. */
  starred: z.boolean(),
  labels: z.array(z.string()),
  note: z.nullable(z.string()),
  /**
   * Its copies, shown once as this result (docs/search.md "Duplicates"): forks or copies that added nothing of their
   * own (their session id and project folder), and its own transcript in another project folder (the same id).
   */
  alsoIn: z.array(z.object({ sessionId: z.string(), project: z.string() })),
});
export type ForkCandidate = z.infer<typeof ForkCandidateSchema>;

/** A recently active session, offered when nothing matches the query. */
export const RecentSessionSchema = z.object({
  sessionId: z.string(),
  topic: z.string(),
  project: z.string(),
  cwd: z.nullable(z.string()),
  relativeDate: z.string(),
  forkCommand: z.string(),
  /** The person's star, tags and note on the session, as on a candidate. */
  starred: z.boolean(),
  labels: z.array(z.string()),
  note: z.nullable(z.string()),
});
export type RecentSession = z.infer<typeof RecentSessionSchema>;
