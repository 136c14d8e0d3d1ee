import { describe, expect, it } from "vitest";
import {
  type RetentionCandidate,
  type RetentionPolicy,
  retentionPolicyFromConfig,
  selectCheckpointsToPrune,
  selectSnapshotsToPrune,
  sortNewestFirst,
} from "./retention.ts";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const DAY = 86_400_000;
const MiB = 1024 * 1024;
const policy: RetentionPolicy = { maxSnapshots: 5, maxAgeDays: 30, maxTotalBytes: 500 * MiB };

function snapshot(id: string, daysAgo: number, fileBytes = MiB, pinned = false): RetentionCandidate {
  return { id, createdAt: new Date(NOW.getTime() - daysAgo * DAY).toISOString(), pinned, fileBytes };
}

describe("selectSnapshotsToPrune", () => {
  it("keeps everything within every limit", () => {
    const decision = selectSnapshotsToPrune([snapshot("a", 1), snapshot("b", 2)], policy, NOW);
    expect(decision).toEqual({
      prune: [],
      reasons: {},
      keptBytes: 2 * MiB,
      pinnedBytes: 0,
      overLimitPinnedBytes: 0,
    });
  });

  it("keeps the newest maxSnapshots and prunes the older ones for count", () => {
    const all = Array.from({ length: 8 }, (_, i) => snapshot(`s${i}`, i));
    const decision = selectSnapshotsToPrune(all, policy, NOW);
    expect(decision.prune).toEqual(["s5", "s6", "s7"]);
    expect(Object.values(decision.reasons)).toEqual(["count", "count", "count"]);
  });

  it("prunes snapshots older than maxAgeDays for age, even when the count allows them", () => {
    const decision = selectSnapshotsToPrune([snapshot("new", 29.9), snapshot("old", 30.1)], policy, NOW);
    expect(decision.prune).toEqual(["old"]);
    expect(decision.reasons).toEqual({ old: "age" });
  });

  it("prunes the oldest for size until the rest fit, counting pinned bytes", () => {
    const decision = selectSnapshotsToPrune(
      [snapshot("pin", 50, 200 * MiB, true), snapshot("a", 1, 150 * MiB), snapshot("b", 2, 160 * MiB)],
      policy,
      NOW,
    );
    expect(decision.prune).toEqual(["b"]);
    expect(decision.reasons).toEqual({ b: "size" });
    expect(decision.keptBytes).toBe(350 * MiB);
  });

  it("never keeps an older snapshot in place of a newer one that did not fit", () => {
    const decision = selectSnapshotsToPrune(
      [snapshot("a", 1, 100 * MiB), snapshot("b", 2, 450 * MiB), snapshot("c", 3, 10 * MiB)],
      policy,
      NOW,
    );
    expect(decision.prune).toEqual(["b", "c"]);
    expect(decision.reasons).toEqual({ b: "size", c: "size" });
  });

  it("never prunes pinned snapshots, and does not count them against maxSnapshots", () => {
    const pinned = Array.from({ length: 7 }, (_, i) => snapshot(`p${i}`, 100 + i, MiB, true));
    const unpinned = Array.from({ length: 5 }, (_, i) => snapshot(`u${i}`, i));
    expect(selectSnapshotsToPrune([...pinned, ...unpinned], policy, NOW).prune).toEqual([]);
  });

  it("reports how far pinned snapshots alone exceed the size limit", () => {
    const decision = selectSnapshotsToPrune([snapshot("p", 1, 600 * MiB, true), snapshot("u", 0, MiB)], policy, NOW);
    expect(decision.prune).toEqual(["u"]);
    expect(decision.overLimitPinnedBytes).toBe(100 * MiB);
    expect(decision.pinnedBytes).toBe(600 * MiB);
  });

  it("treats a creation time that does not parse as the oldest, pruned for age", () => {
    const broken = { id: "x", createdAt: "yesterday", pinned: false, fileBytes: 1 };
    expect(selectSnapshotsToPrune([broken, snapshot("a", 1)], policy, NOW).reasons).toEqual({ x: "age" });
  });

  it("converts the config's megabytes to bytes", () => {
    expect(retentionPolicyFromConfig({ maxSnapshots: 5, maxAgeDays: 30, maxTotalMegabytes: 500 })).toEqual(policy);
  });
});

describe("selectSnapshotsToPrune properties (seeded random cases)", () => {
  const cases = Array.from({ length: 400 }, (_, seed) => randomCase(seed + 1));

  it.each(cases.map((c, i) => [i, c] as const))("case %i holds every invariant", (_, { snapshots, policy }) => {
    const decision = selectSnapshotsToPrune(snapshots, policy, NOW);
    const pruned = new Set(decision.prune);
    const kept = snapshots.filter((s) => !pruned.has(s.id));
    const keptUnpinned = kept.filter((s) => !s.pinned);

    // Never prunes pinned; every pruned id has a reason and exists.
    expect(snapshots.filter((s) => s.pinned && pruned.has(s.id))).toEqual([]);
    expect(Object.keys(decision.reasons).sort()).toEqual([...pruned].sort());
    expect(decision.prune.length).toBe(pruned.size);

    // The kept set satisfies the limits (size: unless the pinned alone exceed it, then no unpinned is kept).
    expect(keptUnpinned.length).toBeLessThanOrEqual(policy.maxSnapshots);
    const oldestAllowed = NOW.getTime() - policy.maxAgeDays * DAY;
    expect(keptUnpinned.every((s) => Date.parse(s.createdAt) >= oldestAllowed)).toBe(true);
    const keptBytes = kept.reduce((total, s) => total + s.fileBytes, 0);
    expect(decision.keptBytes).toBe(keptBytes);
    if (decision.overLimitPinnedBytes > 0) expect(keptUnpinned).toEqual([]);
    else expect(keptBytes).toBeLessThanOrEqual(policy.maxTotalBytes);

    // Newest kept first: the kept unpinned are exactly a prefix of the young-enough ones, newest first,
    // and that prefix is as long as the limits allow (nothing pruned that could have stayed).
    const young = sortNewestFirst(snapshots.filter((s) => !s.pinned && Date.parse(s.createdAt) >= oldestAllowed));
    const prefix = young.slice(0, keptUnpinned.length);
    expect(prefix.map((s) => s.id)).toEqual(sortNewestFirst(keptUnpinned).map((s) => s.id));
    const next = young[keptUnpinned.length];
    if (next !== undefined) {
      const wouldFit = keptBytes + next.fileBytes <= policy.maxTotalBytes;
      expect(keptUnpinned.length < policy.maxSnapshots && wouldFit).toBe(false);
    }

    // Idempotent: pruning what is left prunes nothing more.
    expect(selectSnapshotsToPrune(kept, policy, NOW).prune).toEqual([]);

    // Deterministic: the input order does not matter.
    const reversed = selectSnapshotsToPrune([...snapshots].reverse(), policy, NOW);
    expect(reversed).toEqual(decision);
  });
});

describe("selectCheckpointsToPrune", () => {
  it("keeps the newest `keep` and returns the rest newest first", () => {
    const checkpoints = [snapshot("c2", 2), snapshot("c0", 0), snapshot("c3", 3), snapshot("c1", 1)];
    expect(selectCheckpointsToPrune(checkpoints, 2)).toEqual(["c2", "c3"]);
    expect(selectCheckpointsToPrune(checkpoints, 10)).toEqual([]);
  });

  it("orders ids created in the same millisecond by id, whatever the input order", () => {
    const same = ["b", "a", "c"].map((id) => snapshot(id, 0));
    expect(selectCheckpointsToPrune(same, 1)).toEqual(["b", "a"]);
    expect(selectCheckpointsToPrune([...same].reverse(), 1)).toEqual(["b", "a"]);
  });

  it("is idempotent on random sets", () => {
    for (let seed = 1; seed <= 100; seed++) {
      const { snapshots } = randomCase(seed);
      const keep = seed % 7;
      const pruned = new Set(selectCheckpointsToPrune(snapshots, keep));
      const kept = snapshots.filter((s) => !pruned.has(s.id));
      expect(kept.length).toBe(Math.min(keep, snapshots.length));
      expect(selectCheckpointsToPrune(kept, keep)).toEqual([]);
    }
  });
});

/** A deterministic random set of snapshots and a policy (LCG), covering ties, pins and every limit. */
function randomCase(seed: number): { snapshots: RetentionCandidate[]; policy: RetentionPolicy } {
  let state = seed >>> 0;
  const next = (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
  const count = next(15);
  const snapshots = Array.from({ length: count }, (_, i) => ({
    id: `s${i.toString().padStart(2, "0")}-${next(1000)}`,
    // Whole hours, so several snapshots share a time and the id decides.
    createdAt: new Date(NOW.getTime() - next(24 * 60) * 3_600_000).toISOString(),
    pinned: next(5) === 0,
    fileBytes: 1 + next(200) * MiB,
  }));
  return {
    snapshots,
    policy: { maxSnapshots: 1 + next(8), maxAgeDays: 1 + next(60), maxTotalBytes: next(1200) * MiB },
  };
}
