// The curve of a session: one point per main-chain reply with usage (sidechains, API errors and synthetic replies
// skipped), compactions placed between points, the tiers the guard would announce, snapshots at their time.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/defaults.ts";
import { buildContextCurve } from "./context-curve.ts";

const reply = (tokens: number, at: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: "assistant",
    timestamp: at,
    message: { model: "claude-sonnet-4-5", usage: { input_tokens: 10, cache_read_input_tokens: tokens - 10 } },
    ...extra,
  });
const boundary = (at: string, pre: number, post: number) =>
  JSON.stringify({
    type: "system",
    subtype: "compact_boundary",
    timestamp: at,
    compactMetadata: { trigger: "auto", preTokens: pre, postTokens: post },
  });
const minute = (m: number) => new Date(Date.UTC(2026, 0, 1, 12, m)).toISOString();

function curveOf(lines: string[], snapshots: Array<{ id: string; trigger: string; createdAt: string }> = []) {
  return buildContextCurve({
    sessionId: "s1",
    lines,
    settings: defaultConfig().guard,
    window: () => ({ windowTokens: 200_000, autoCompactTokens: 167_000 }),
    snapshots,
  });
}

describe("context curve", () => {
  it("draws one point per main-chain reply with usage and places a compaction between points", () => {
    const curve = curveOf([
      reply(20_000, minute(0)),
      reply(999_999, minute(1), { isSidechain: true }),
      "not json",
      reply(60_000, minute(2)),
      JSON.stringify({
        type: "assistant",
        timestamp: minute(3),
        message: { model: "<synthetic>", usage: { input_tokens: 5 } },
      }),
      boundary(minute(4), 160_000, 30_000),
      reply(35_000, minute(5)),
      JSON.stringify({ type: "user", message: { content: "hi" } }),
    ]);
    expect(curve.points.map((p) => p.usedTokens)).toEqual([20_000, 60_000, 35_000]);
    expect(curve.compactions).toEqual([
      { afterIndex: 2, at: minute(4), trigger: "auto", preTokens: 160_000, postTokens: 30_000 },
    ]);
    expect(curve.peakTokens).toBe(60_000);
    expect(curve.model).toBe("claude-sonnet-4-5");
  });

  it("marks the tiers as the guard announces them: once per rise, again after a compaction", () => {
    // Steady 1,000-token steps keep the dynamic thresholds at the configured ones (30/15/7/3% remaining of 200K
    // before auto-compaction at 167K): warning from 107K, advisory 137K, yellow 153K, critical 161K (the steps stay off the exact edges).
    const lines = Array.from({ length: 63 }, (_, i) => reply(100_500 + i * 1_000, minute(i)));
    lines.push(boundary(minute(70), 162_000, 20_000), reply(20_000, minute(71)), reply(21_000, minute(72)));
    lines.push(reply(110_000, minute(73)));
    const curve = curveOf(lines);
    const marks = curve.tierMarks.map((m) => `${m.index}:${m.tier}:${m.reason}`);
    expect(marks.slice(0, 4)).toEqual([
      "8:warning:escalation",
      "38:advisory:escalation",
      "54:yellow:escalation",
      "62:critical:escalation",
    ]);
    expect(curve.points[60]?.tier).toBe("yellow");
    expect(curve.points[63]?.tier).toBe("ok");
    // After the compaction the series restarts, so the next rise is announced again.
    expect(marks.slice(4)).toEqual([expect.stringMatching(/^66:(warning|advisory|yellow|critical):escalation$/)]);
  });

  it("puts a snapshot at the last point taken at or before it", () => {
    const lines = [reply(20_000, minute(0)), reply(30_000, minute(10)), reply(40_000, minute(20))];
    const curve = curveOf(lines, [
      { id: "a", trigger: "auto", createdAt: minute(15) },
      { id: "b", trigger: "manual", createdAt: minute(59) },
    ]);
    expect(curve.snapshots.map((s) => [s.id, s.index])).toEqual([
      ["a", 2],
      ["b", 3],
    ]);
  });
});
