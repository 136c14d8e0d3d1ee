// What `.ctx/snapshots/<snapshot id>.audit.json` holds (./compaction-audit.ts makes it). On its own, so that
// SessionStart reads a stored audit with the checker compiled from it (./compaction-audit-schema.compiled.ts) and
// loads no zod.
import * as z from "zod/mini";
import { AUDIT_FATES, AUDIT_KINDS, AUDIT_SUMMARY_SOURCES } from "./audit-terms.ts";

export const AuditItemSchema = z.object({
  kind: z.enum(AUDIT_KINDS),
  text: z.string(),
  fate: z.enum(AUDIT_FATES),
  /** Share of the item's content words found in the summary, 0..1 (1 for `kept`). */
  overlap: z.number(),
});
export type AuditItem = z.infer<typeof AuditItemSchema>;

/** What `.ctx/snapshots/<snapshot id>.audit.json` holds. */
export const CompactionAuditSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  snapshotId: z.string(),
  /** When the compaction happened (the summary's time, else when the audit ran). */
  at: z.string(),
  /** The PostCompact hook's `compact_summary`, or the summary entry of the transcript. */
  summarySource: z.enum(AUDIT_SUMMARY_SOURCES),
  summaryChars: z.int(),
  threshold: z.number(),
  items: z.array(AuditItemSchema),
});
export type CompactionAudit = z.infer<typeof CompactionAuditSchema>;
