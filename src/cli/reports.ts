// The `--json` output of the snapshot commands, one schema each, so scripts can rely on the shape (and the tests
// check every command's output against its schema). save, restore, checkpoint, clear and diff print the results
// the MCP tools return too (src/store/context/operations.ts, src/store/context/diff.ts).
import * as z from "zod/mini";
import { SnapshotEntrySchema } from "../store/snapshots/catalog.ts";

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
