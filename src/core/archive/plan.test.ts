import { describe, expect, it } from "vitest";
import { type ArchiveMeta, archiveExpiry, planPrune, splitBySize, toArchiveListing, transcriptsDue } from "./plan.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

function meta(sessionId: string, lastWriteDaysAgo: number, archivedDaysAgo: number, bytes = 100): ArchiveMeta {
  return {
    version: 1,
    sessionId,
    project: "-p",
    transcriptPath: `/c/projects/-p/${sessionId}.jsonl`,
    claudeDir: "/c",
    cwd: null,
    archivedAt: new Date(NOW - archivedDaysAgo * DAY).toISOString(),
    files: [{ path: `projects/-p/${sessionId}.jsonl`, bytes: 10, sha256: "x", mtimeMs: NOW - lastWriteDaysAgo * DAY }],
    bytes,
  };
}

const transcript = (sessionId: string, ageDays: number, bytes = 10) => ({
  sessionId,
  path: `/c/projects/-p/${sessionId}.jsonl`,
  mtimeMs: NOW - ageDays * DAY,
  bytes,
});

describe("what the archive pass copies", () => {
  it("takes transcripts within daysBeforeCleanup of deletion, not those past maxAgeDays (pruned at once)", () => {
    const all = [transcript("fresh", 3), transcript("due", 25), transcript("ancient", 400)];
    const options = { now: NOW, cleanupPeriodDays: 30, daysBeforeCleanup: 7 };
    expect(transcriptsDue(all, new Map(), { ...options, maxAgeDays: 365 }).map((t) => t.sessionId)).toEqual(["due"]);
    // 0 keeps forever, so the ancient one is copied too.
    expect(transcriptsDue(all, new Map(), { ...options, maxAgeDays: 0 }).map((t) => t.sessionId)).toEqual([
      "due",
      "ancient",
    ]);
  });

  it("splits off transcripts over the size limit (0: no limit)", () => {
    const all = [transcript("small", 25, 1_000), transcript("big", 25, 2_000_001), transcript("edge", 25, 2_000_000)];
    const split = splitBySize(all, 2_000_000);
    expect(split.fit.map((t) => t.sessionId)).toEqual(["small", "edge"]);
    expect(split.oversize.map((t) => t.sessionId)).toEqual(["big"]);
    expect(splitBySize(all, 0).oversize).toEqual([]);
  });
});

describe("what the archive prunes", () => {
  it("prunes past maxAgeDays by the transcript's last write, not by when it was archived; pinned kept", () => {
    const archives = [meta("old-write", 400, 10), meta("old-archive", 20, 400), meta("pinned", 400, 400)];
    const plan = planPrune(archives, new Set(["pinned"]), { now: NOW, maxAgeDays: 365, maxBytes: 0 });
    expect(plan.expired.map((m) => m.sessionId)).toEqual(["old-write"]);
    expect(plan.overCap).toEqual([]);
    expect(planPrune(archives, new Set(), { now: NOW, maxAgeDays: 0, maxBytes: 0 }).expired).toEqual([]);
  });

  it("applies the size cap to what the age limit left, oldest archived first, pinned never", () => {
    const archives = [meta("a", 10, 30, 100), meta("b", 10, 20, 100), meta("c", 10, 10, 100), meta("d", 400, 5, 100)];
    const plan = planPrune(archives, new Set(["a"]), { now: NOW, maxAgeDays: 365, maxBytes: 150 });
    expect(plan.expired.map((m) => m.sessionId)).toEqual(["d"]);
    // 300 bytes left, cap 150: b (oldest unpinned) then c.
    expect(plan.overCap.map((m) => m.sessionId)).toEqual(["b", "c"]);
  });

  it("says when each copy expires in the listing", () => {
    const listing = toArchiveListing([meta("a", 10, 5), meta("b", 10, 1)], new Set(["b"]), 30);
    expect(listing.sessions.map((s) => [s.sessionId, s.pinned, s.expiresAt])).toEqual([
      ["b", true, null],
      ["a", false, new Date(NOW + 20 * DAY).toISOString()],
    ]);
    expect(archiveExpiry(meta("a", 10, 5), 0, false)).toBeNull();
  });
});
