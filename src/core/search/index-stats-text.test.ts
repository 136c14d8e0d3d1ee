import { describe, expect, it } from "vitest";
import type { IndexStatsReport, RebuildRecord } from "./index-stats-schema.ts";
import { describeRebuild, indexStatsRows, renderIndexStats } from "./index-stats-text.ts";

const record = (fields: Partial<RebuildRecord>): RebuildRecord => ({
  pid: 42,
  startedAt: Date.UTC(2026, 11, 2, 4),
  updatedAt: Date.UTC(2026, 11, 2, 4),
  finishedAt: null,
  outcome: "running",
  done: 0,
  total: 0,
  sessions: null,
  error: null,
  ...fields,
});

const report = (fields: Partial<IndexStatsReport> = {}): IndexStatsReport => ({
  path: "/h/.ctx/index.db",
  exists: true,
  sessions: 1_234,
  chunks: 5_000,
  projects: 3,
  bytes: 3 * 1024 ** 2,
  lastSyncAt: Date.UTC(2026, 11, 2, 5),
  vectors: 0,
  integrity: "ok",
  byProject: [
    { project: "-a", sessions: 1_000, lastActiveAt: Date.UTC(2026, 11, 1) },
    { project: "-b", sessions: 200, lastActiveAt: null },
    { project: "", sessions: 34, lastActiveAt: null },
  ],
  byMonth: [
    { month: "2026-10", sessions: 4 },
    { month: "2026-11", sessions: 1_000 },
    { month: "2026-12", sessions: 230 },
  ],
  duplicates: { copies: 0, foldedInto: 0, sharedTranscripts: 0 },
  rebuild: null,
  ...fields,
});

describe("index stats text", () => {
  it("says how each rebuild went", () => {
    expect(describeRebuild(record({}))).toBe("running since 2026-12-02T04:00:00.000Z (pid 42), listing transcripts");
    expect(describeRebuild(record({ done: 5, total: 1_200 }))).toMatch(/: 5 of 1,200 files$/);
    expect(describeRebuild(record({ outcome: "done", finishedAt: 0, sessions: 9 }))).toBe(
      "done 1970-01-01T00:00:00.000Z: 9 sessions",
    );
    expect(describeRebuild(record({ outcome: "failed", finishedAt: 0, error: "disk full" }))).toMatch(/disk full$/);
    expect(describeRebuild(record({ outcome: "stopped", done: 3, total: 9 }))).toMatch(/ended after 3 of 9 files/);
    expect(describeRebuild(record({ outcome: "interrupted", finishedAt: 0, done: 3, total: 9 }))).toMatch(
      /ctx index resumes it/,
    );
  });

  it("lists the first N projects and the newest months, then how many more", () => {
    const rows = indexStatsRows(report(), 2);
    const rowsBelow = (label: string) => rows.slice(rows.findIndex(([l]) => l === label) + 1);
    expect(rowsBelow("sessions by project").slice(0, 3)).toEqual([
      ["  1,000", "-a · last 2026-12-01"],
      ["  200", "-b"],
      ["  …", "1 more (the JSON lists all)"],
    ]);
    expect(rowsBelow("sessions by month").slice(0, 3)).toEqual([
      ["  2026-12", "230"],
      ["  2026-11", "1,000"],
      ["  …", "1 more (the JSON lists all)"],
    ]);
    expect(rows).toContainEqual(["duplicates", "none found"]);
    expect(indexStatsRows(report({ duplicates: { copies: 3, foldedInto: 2, sharedTranscripts: 1 } }))).toContainEqual([
      "duplicates",
      "3 copies folded into 2 session(s); 1 transcript(s) in several project folders",
    ]);
  });

  it("renders aligned lines, or how to build a missing index", () => {
    expect(renderIndexStats(report())).toMatch(/^index {8,}\/h\/\.ctx\/index\.db\nsessions +1,234\n/);
    expect(renderIndexStats(report({ exists: false }))).toContain("run `ctx index`");
  });
});
