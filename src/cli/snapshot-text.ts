// How snapshots and checkpoints read in the terminal: aligned tables for `ctx snapshot list`, the meta
// rows of `ctx snapshot show`, and why retention removed a snapshot.
import type { PruneReason, RetentionPolicy } from "../core/snapshots/retention.ts";
import { formatBytes } from "../core/snapshots/summary.ts";
import type { CheckpointEntry } from "../store/snapshots/checkpoints.ts";
import type { SnapshotEntry } from "../store/snapshots/snapshots.ts";

/** Columns padded to their widest cell; the last column is not padded. */
function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}

const counts = (summary: Record<string, number>) =>
  Object.entries(summary)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${key} ${n}`)
    .join(", ");

export function formatSnapshotTable(entries: readonly SnapshotEntry[], verbose: boolean): string {
  if (entries.length === 0) return "no snapshots yet (the pre-compact hook takes one before each compaction)\n";
  const header = ["id", "created", "trigger", "size", "pinned", "name"];
  const rows = entries.map((e) => [
    e.id,
    e.createdAt,
    e.trigger,
    formatBytes(e.fileBytes),
    e.pinned ? "pinned" : "-",
    e.name ?? "",
  ]);
  if (!verbose) return `snapshots (${entries.length}), newest first:\n${formatTable([header, ...rows])}`;
  const detail = entries.map((e, i) => [
    ...(rows[i] ?? []),
    `session ${e.sessionId}; ${e.codec}; transcript ${
      e.transcript === null ? "none" : `${e.transcript.lines} lines, ${formatBytes(e.transcript.bytes)}`
    }; ${counts(e.stateSummary) || "empty state"}`,
  ]);
  return `snapshots (${entries.length}), newest first:\n${formatTable([[...header, "details"], ...detail])}`;
}

export function formatCheckpointTable(entries: readonly CheckpointEntry[]): string {
  if (entries.length === 0) return "no checkpoints yet\n";
  const rows = entries.map((e) => [e.id, e.createdAt, formatBytes(e.fileBytes)]);
  return `checkpoints (${entries.length}), newest first:\n${formatTable([["id", "created", "size"], ...rows])}`;
}

export function snapshotMetaRows(e: SnapshotEntry): [string, string][] {
  return [
    ["snapshot", e.id],
    ["created", e.createdAt],
    ["trigger", e.trigger],
    ...(e.name === undefined ? [] : ([["name", e.name]] as [string, string][])),
    ["session", e.sessionId],
    ["file", `${formatBytes(e.fileBytes)}, ${e.codec}${e.pinned ? ", pinned" : ""}`],
    [
      "transcript",
      e.transcript === null
        ? "not kept"
        : `${e.transcript.path} (${e.transcript.lines} lines, ${formatBytes(e.transcript.bytes)})`,
    ],
    ["holds", counts(e.stateSummary) || "an empty state"],
  ];
}

export function describePruneReason(reason: PruneReason, policy: RetentionPolicy): string {
  switch (reason) {
    case "age":
      return `older than ${policy.maxAgeDays} days`;
    case "count":
      return `beyond the newest ${policy.maxSnapshots} unpinned snapshots`;
    case "size":
      return `over the ${formatBytes(policy.maxTotalBytes)} storage limit`;
  }
}
