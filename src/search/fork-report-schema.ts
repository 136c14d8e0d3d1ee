// The `ctx search --json` output and the ctx_fork_detect tool's result, as one zod schema: the MCP tool checks its
// output with it; ./fork-detect.ts, which builds the report, imports its type only (a search loads no zod).
import * as z from "zod/mini";
import { ForkCandidateSchema, RecentSessionSchema } from "../core/search/fork-candidate-schema.ts";
import { SEARCH_SCOPES } from "./search-scope.ts";

/** The `ctx search --json` output and the ctx_fork_detect result. */
export const ForkDetectReportSchema = z.object({
  query: z.string(),
  /** The answer as text: Claude Code hands the model the structured result, so it must say it all. */
  message: z.string(),
  /** Strong matches first, then weak ones (`weak: true`); empty only when nothing in the index matched. */
  results: z.array(ForkCandidateSchema),
  thresholdPercent: z.number(),
  strongMatches: z.int(),
  weakMatches: z.int(),
  recent: z.array(RecentSessionSchema),
  indexedSessions: z.int(),
  /** Where it searched: local, team or all (search.scope). */
  scope: z.enum(SEARCH_SCOPES),
  /** What the search had to leave out, one line each (e.g. the team server did not answer); usually empty. */
  notices: z.array(z.string()),
  /**
   * What the query's time words and exclusions were read as (core/search/query-understanding.ts); absent when it has
   * neither. Times are ISO (UTC); `description` and `lines` are in the local time zone.
   */
  understood: z.optional(
    z.object({
      /** The words searched: the query without its time words and exclusions. */
      searched: z.string(),
      /** The window searched: sessions active from `from` (inclusive) to `to` (exclusive); null = open. */
      period: z.nullable(
        z.object({
          from: z.nullable(z.string()),
          to: z.nullable(z.string()),
          words: z.array(z.string()),
          description: z.string(),
        }),
      ),
      excluded: z.array(z.string()),
      /** Nothing was left to search: `recent` lists the sessions the window and exclusions leave, newest first. */
      listing: z.boolean(),
      /** The window held no session at all, or none whose words matched: every date was searched (`lines` says which). */
      widened: z.boolean(),
      /**
       * "before the migration to pnpm": the sessions on that side of the event's session (the best strong match for
       * its words; null fields when none) rank higher, as a named date does.
       */
      event: z.optional(
        z.nullable(
          z.object({
            side: z.enum(["before", "after"]),
            words: z.string(),
            sessionId: z.nullable(z.string()),
            title: z.nullable(z.string()),
            at: z.nullable(z.string()),
          }),
        ),
      ),
      lines: z.array(z.string()),
    }),
  ),
});
export type ForkDetectReport = z.infer<typeof ForkDetectReportSchema>;
