// The `--json` output of the context commands, one schema each, so scripts can rely on the shape (and the
// tests check every command's output against its schema).
import * as z from "zod/mini";
import { ContextDiffSchema } from "../core/context/diff.ts";
import { SnapshotEntrySchema } from "../store/snapshots/catalog.ts";

const SkippedCheckpointSchema = z.object({ id: z.string(), problem: z.string() });

export const SaveReportSchema = z.object({
  sessionId: z.string(),
  name: z.nullable(z.string()),
  path: z.string(),
  extractedAt: z.string(),
  counts: z.object({
    messages: z.int(),
    todos: z.int(),
    decisions: z.int(),
    preferences: z.int(),
    files: z.int(),
    toolCalls: z.int(),
  }),
  /** Secrets replaced by markers before anything was written. */
  redactions: z.int(),
  /** Where a damaged earlier state file was moved; null normally. */
  movedAside: z.nullable(z.string()),
});
export type SaveReport = z.infer<typeof SaveReportSchema>;

export const RestoreReportSchema = z.object({
  origin: z.string(),
  mode: z.enum(["full", "summary", "selective"]),
  /** null: no cap (`--print`). */
  maxChars: z.nullable(z.int()),
  text: z.string(),
  /** With `--checkpoint` and no id: newer checkpoints that did not verify, newest first. */
  skippedCheckpoints: z.array(SkippedCheckpointSchema),
  /** `ctx snapshot restore --as-current`: where the snapshot's state was written; null otherwise. */
  writtenTo: z.nullable(z.string()),
});
export type RestoreReport = z.infer<typeof RestoreReportSchema>;

export const DiffReportSchema = z.object({ origin: z.string(), savedAt: z.string(), diff: ContextDiffSchema });
export type DiffReport = z.infer<typeof DiffReportSchema>;

export const ClearReportSchema = z.object({ cleared: z.boolean(), path: z.string() });
export type ClearReport = z.infer<typeof ClearReportSchema>;

export const CheckpointReportSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  path: z.string(),
  messages: z.int(),
});
export type CheckpointReport = z.infer<typeof CheckpointReportSchema>;

const CheckpointEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  fileBytes: z.int(),
  path: z.string(),
});

export const SnapshotListReportSchema = z.object({
  snapshots: z.array(SnapshotEntrySchema),
  checkpoints: z.array(CheckpointEntrySchema),
});
export type SnapshotListReport = z.infer<typeof SnapshotListReportSchema>;

export const SnapshotShowReportSchema = z.object({ snapshot: SnapshotEntrySchema, text: z.string() });
export type SnapshotShowReport = z.infer<typeof SnapshotShowReportSchema>;

export const SnapshotPinReportSchema = z.object({ snapshot: SnapshotEntrySchema });

const StorageUsageSchema = z.object({
  snapshots: z.object({ count: z.int(), bytes: z.int(), pinnedCount: z.int(), pinnedBytes: z.int() }),
  checkpoints: z.object({ count: z.int(), bytes: z.int() }),
  leftovers: z.object({ tempFiles: z.int(), damagedFiles: z.int(), bytes: z.int() }),
  totalBytes: z.int(),
});

export const PruneReportSchema = z.object({
  dryRun: z.boolean(),
  policy: z.object({ maxSnapshots: z.int(), maxAgeDays: z.number(), maxTotalBytes: z.int() }),
  /** Pruned (or, with dryRun, to be pruned), newest first, with the limit that removed each. */
  pruned: z.array(
    z.object({ id: z.string(), reason: z.enum(["count", "age", "size"]), why: z.string(), fileBytes: z.int() }),
  ),
  keptBytes: z.int(),
  pinnedBytes: z.int(),
  /** Pinned snapshots alone exceed the size limit by this much: only unpinning fixes it (exit code 1). */
  overLimitPinnedBytes: z.int(),
  damaged: z.array(z.object({ id: z.string(), problem: z.string() })),
  removedTempFiles: z.array(z.string()),
  usage: StorageUsageSchema,
});
export type PruneReport = z.infer<typeof PruneReportSchema>;

export const RecompressReportSchema = z.object({
  snapshot: SnapshotEntrySchema,
  beforeBytes: z.int(),
  afterBytes: z.int(),
  recompressed: z.boolean(),
});
