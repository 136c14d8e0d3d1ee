// What `ctx stats --json` prints and the ctx_index tool's `stats` op returns: the session index's figures, one zod
// schema per part. A new part (fork history, say) is a new optional field here and a section in ./index-stats-text.ts;
// the flat fields at the top are the report's first form, kept as they were for scripts.
import * as z from "zod/mini";

/** A `ctx reindex` run, recorded by the run itself (src/search/sync/rebuild-record.ts): the last one, or the one going on. */
export const RebuildRecordSchema = z.object({
  /** The process that runs (or ran) it. */
  pid: z.int(),
  startedAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.nullable(z.number()),
  /** `stopped`: it was running, but its process is gone (killed, or the machine restarted). */
  outcome: z.enum(["running", "done", "interrupted", "failed", "stopped"]),
  /** Transcript files read so far, of `total` to read (0 until the run has listed them). */
  done: z.int(),
  total: z.int(),
  /** Sessions in the index when it finished. */
  sessions: z.nullable(z.int()),
  error: z.nullable(z.string()),
});
export type RebuildRecord = z.infer<typeof RebuildRecordSchema>;

export const IndexStatsReportSchema = z.object({
  path: z.string(),
  exists: z.boolean(),
  sessions: z.int(),
  chunks: z.int(),
  projects: z.int(),
  /** The database file plus its WAL. */
  bytes: z.number(),
  /** When the last sync finished (epoch ms), or null before the first. */
  lastSyncAt: z.nullable(z.number()),
  vectors: z.int(),
  /** `PRAGMA quick_check` of the whole file: "ok", or what SQLite found damaged; "not checked" unless asked (--check). */
  integrity: z.string(),
  /** Every project, most sessions first. */
  byProject: z.array(z.object({ project: z.string(), sessions: z.int(), lastActiveAt: z.nullable(z.number()) })),
  /** Every month (UTC, of a session's first message), oldest first. */
  byMonth: z.array(z.object({ month: z.string(), sessions: z.int() })),
  /** Duplicates found at index time (docs/search.md "Duplicates"). */
  duplicates: z.object({
    /** Sessions folded into another: copies that added nothing of their own. */
    copies: z.int(),
    /** The sessions they fold into. */
    foldedInto: z.int(),
    /** Session ids whose transcript is in more than one project folder. */
    sharedTranscripts: z.int(),
  }),
  /** The last `ctx reindex` (or `/reindex`), or the one going on; null when none was recorded. */
  rebuild: z.nullable(RebuildRecordSchema),
});
export type IndexStatsReport = z.infer<typeof IndexStatsReportSchema>;
