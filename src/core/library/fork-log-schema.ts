// The fork log's lines (docs/forks.md): what ctx offered (a search's sessions with their fork points) and which
// fork it ran. One JSON object a line in `~/.ctx/library/fork-log.jsonl`; a line that fails this schema is skipped
// and counted, never trusted. Add fields, never reorder or rename: old lines stay readable.
import * as z from "zod/mini";

/** One session a search offered, and where its fork-at command would cut it (the best chunk's last line). */
export const ForkOfferSessionSchema = z.object({
  sessionId: z.string(),
  /** The uuid `--resume-session-at` would stop at; null when the index knows no line for the match. */
  point: z.nullable(z.string()),
});
export type ForkOfferSession = z.infer<typeof ForkOfferSessionSchema>;

export const ForkOfferRecordSchema = z.object({
  kind: z.literal("offer"),
  /** When the search ran (ms since the epoch). */
  at: z.number(),
  /** Who asked: `ctx search` or the `ctx_fork_detect` tool. */
  via: z.enum(["cli", "mcp"]),
  /** The query, redacted and cut to QUERY_CHARS; null when only its hash was kept (./fork-offer.ts says when). */
  query: z.nullable(z.string()),
  /** The query's SHA-256 (first 16 bytes, hex). */
  queryHash: z.string(),
  sessions: z.array(ForkOfferSessionSchema),
});
export type ForkOfferRecord = z.infer<typeof ForkOfferRecordSchema>;

export const ForkRunRecordSchema = z.object({
  kind: z.literal("run"),
  at: z.number(),
  /** The picker of `ctx search` ran it, or `ctx fork <id>` printed or ran it (the person named that session). */
  via: z.enum(["picker", "fork"]),
  sessionId: z.string(),
  point: z.nullable(z.string()),
});
export type ForkRunRecord = z.infer<typeof ForkRunRecordSchema>;

export const ForkLogRecordSchema = z.discriminatedUnion("kind", [ForkOfferRecordSchema, ForkRunRecordSchema]);
export type ForkLogRecord = z.infer<typeof ForkLogRecordSchema>;
