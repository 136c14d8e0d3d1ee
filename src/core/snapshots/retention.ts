// Which snapshots and checkpoints to delete: the retention policy as a pure decision over metadata.
// Pinned snapshots are never pruned and never count against maxSnapshots, but their bytes count towards
// maxTotalBytes. The unpinned ones are kept newest first, while each limit still holds: the kept set is
// always the newest unpinned snapshots, never an older one kept in place of a newer one.

export interface RetentionPolicy {
  maxSnapshots: number;
  maxAgeDays: number;
  maxTotalBytes: number;
}

/** What retention needs to know of a snapshot (the snapshot store's entries have these fields). */
export interface RetentionCandidate {
  id: string;
  /** ISO 8601. A time that does not parse counts as infinitely old. */
  createdAt: string;
  pinned: boolean;
  fileBytes: number;
}

export type PruneReason = "count" | "age" | "size";

export interface SnapshotPruneDecision {
  /** Ids to delete, newest first. */
  prune: string[];
  reasons: Record<string, PruneReason>;
  /** Bytes of everything kept, pinned included. */
  keptBytes: number;
  pinnedBytes: number;
  /** How far the pinned snapshots alone exceed maxTotalBytes (0 when they fit): only a person can fix that. */
  overLimitPinnedBytes: number;
}

const DAY_MS = 86_400_000;
/** "500 MB" in the config means MiB: sizes on disk are reported in binary units throughout ctx. */
const BYTES_PER_MEGABYTE = 1024 * 1024;

/** The policy from the config's `retention` section (megabytes there, bytes here). */
export function retentionPolicyFromConfig(retention: {
  maxSnapshots: number;
  maxAgeDays: number;
  maxTotalMegabytes: number;
}): RetentionPolicy {
  return {
    maxSnapshots: retention.maxSnapshots,
    maxAgeDays: retention.maxAgeDays,
    maxTotalBytes: retention.maxTotalMegabytes * BYTES_PER_MEGABYTE,
  };
}

export function selectSnapshotsToPrune(
  snapshots: readonly RetentionCandidate[],
  policy: RetentionPolicy,
  now: Date,
): SnapshotPruneDecision {
  const sorted = sortNewestFirst(snapshots);
  const pinnedBytes = sum(sorted.filter((s) => s.pinned).map((s) => s.fileBytes));
  const oldestAllowed = now.getTime() - policy.maxAgeDays * DAY_MS;
  const prune: string[] = [];
  const reasons: Record<string, PruneReason> = {};
  let keptBytes = pinnedBytes;
  let keptUnpinned = 0;
  let sizeLimitReached = false;
  for (const snapshot of sorted) {
    if (snapshot.pinned) continue;
    let reason: PruneReason | null = null;
    if (timeOf(snapshot) < oldestAllowed) reason = "age";
    else if (keptUnpinned >= policy.maxSnapshots) reason = "count";
    else if (sizeLimitReached || keptBytes + snapshot.fileBytes > policy.maxTotalBytes) {
      // Once one does not fit, every older one goes too: keeping an older, smaller one in its place
      // would leave a gap in the history that nobody asked for.
      sizeLimitReached = true;
      reason = "size";
    }
    if (reason === null) {
      keptUnpinned++;
      keptBytes += snapshot.fileBytes;
    } else {
      prune.push(snapshot.id);
      reasons[snapshot.id] = reason;
    }
  }
  return {
    prune,
    reasons,
    keptBytes,
    pinnedBytes,
    overLimitPinnedBytes: Math.max(0, pinnedBytes - policy.maxTotalBytes),
  };
}

/** Rolling checkpoints: keep the `keep` newest, delete the rest (returned newest first). */
export function selectCheckpointsToPrune(
  checkpoints: readonly { id: string; createdAt: string }[],
  keep: number,
): string[] {
  return sortNewestFirst(checkpoints)
    .slice(Math.max(0, keep))
    .map((checkpoint) => checkpoint.id);
}

/** Newest first by creation time, then by id, so the result never depends on the input order. */
export function sortNewestFirst<T extends { id: string; createdAt: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => {
    const timeA = timeOf(a);
    const timeB = timeOf(b);
    if (timeA !== timeB) return timeB > timeA ? 1 : -1;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
}

function timeOf(item: { createdAt: string }): number {
  const time = Date.parse(item.createdAt);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
