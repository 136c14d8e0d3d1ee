// A snapshot as the ctx_snapshot_list tool and the ctx://snapshots resources show it: the catalog entry (its field
// names, as `ctx snapshot list --json` prints it) without the on-disk details (codec, transcript path), counts
// and transcript size only when asked.
import * as z from "zod/mini";
import { formatBytes } from "../../core/snapshots/summary.ts";
import { SNAPSHOT_TRIGGERS, type SnapshotEntry } from "../../store/snapshots/catalog.ts";

export const SnapshotListingSchema = z.object({
  id: z.string(),
  trigger: z.enum(SNAPSHOT_TRIGGERS),
  createdAt: z.string(),
  sessionId: z.string(),
  name: z.nullable(z.string()),
  /** Size of the snapshot file (compressed). */
  fileBytes: z.int(),
  pinned: z.boolean(),
  /** verbose: counts of what the saved state holds, e.g. { decisions: 4, "todos.items": 3 }. */
  stateSummary: z.optional(z.record(z.string(), z.number())),
  /** verbose: the kept transcript's size; null for a snapshot of the state alone. */
  transcript: z.optional(z.nullable(z.object({ bytes: z.int(), lines: z.int() }))),
});
export type SnapshotListing = z.infer<typeof SnapshotListingSchema>;

export function toSnapshotListing(entry: SnapshotEntry, verbose: boolean): SnapshotListing {
  const listing: SnapshotListing = {
    id: entry.id,
    trigger: entry.trigger,
    createdAt: entry.createdAt,
    sessionId: entry.sessionId,
    name: entry.name ?? null,
    fileBytes: entry.fileBytes,
    pinned: entry.pinned,
  };
  if (!verbose) return listing;
  const transcript = entry.transcript && { bytes: entry.transcript.bytes, lines: entry.transcript.lines };
  return { ...listing, stateSummary: entry.stateSummary, transcript };
}

export function formatSnapshotLine(listing: SnapshotListing): string {
  const parts = [
    listing.id,
    listing.trigger,
    listing.createdAt,
    `session ${listing.sessionId}`,
    formatBytes(listing.fileBytes),
  ];
  if (listing.name !== null) parts.push(`"${listing.name}"`);
  if (listing.pinned) parts.push("pinned");
  if (listing.transcript)
    parts.push(`transcript ${formatBytes(listing.transcript.bytes)}, ${listing.transcript.lines} lines`);
  if (listing.stateSummary) {
    const counts = Object.entries(listing.stateSummary).map(([key, count]) => `${key} ${count}`);
    if (counts.length > 0) parts.push(counts.join(", "));
  }
  return parts.join("  ");
}
