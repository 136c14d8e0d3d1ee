import { describe, expect, it } from "vitest";
import type { Health } from "./health.ts";
import {
  formatGuardNotice,
  formatGuardSystemMessage,
  formatHealthText,
  formatStatusLine,
  formatTokens,
} from "./text.ts";

const health: Health = {
  sessionId: "s1",
  tier: "critical",
  usedTokens: 162_000,
  windowTokens: 200_000,
  percentUsed: 81,
  percentRemaining: 2.5,
  autoCompactTokens: 167_000,
  velocity: 2,
  forecastOperations: 1,
  velocityAlarm: false,
  thresholds: { warning: 30, advisory: 15, yellow: 7, critical: 3 },
  lastCompaction: { at: "2026-11-22T09:00:00Z", trigger: "auto", preTokens: 170_251, postTokens: null },
  measuredAt: "2026-11-22T10:00:00Z",
  recentMeasurements: [],
};

describe("guard text", () => {
  it("formatTokens", () => {
    expect([950, 1_000, 36_081, 164_831, 1_000_000, 1_250_000].map(formatTokens)).toEqual([
      "950",
      "1K",
      "36.1K",
      "164.8K",
      "1M",
      "1.3M",
    ]);
  });

  it("a notice states the facts, what ctx kept, what failed, and the tier's advice", () => {
    const notice = {
      level: 4,
      tier: "critical" as const,
      reason: "escalation" as const,
      actions: ["save" as const, "snapshot" as const],
    };
    const text = formatGuardNotice(notice, health, {
      saved: true,
      checkpointId: null,
      snapshotId: null,
      failures: ["take a snapshot (disk full)"],
    });
    expect(text).toBe(
      "ctx context guard (critical): 81% of the 200K-token window is in use (162K tokens); 2.5% of the window remains " +
        "before auto-compaction at 167K. Recent tool calls used about 2% of the window each: about 1 more before " +
        "auto-compaction. ctx saved the working state; it is restored after compaction. (ctx could not: take a snapshot " +
        "(disk full)) Compaction is imminent. Stop starting new work, summarise where things stand for the user, and ask " +
        "them to run /compact now.",
    );
    expect(text.length).toBeLessThan(1_000);
    expect(formatGuardSystemMessage(notice, health)).toBe(
      "ctx: context critical: 81% used, ~1 tool calls to auto-compact. Consider /compact now.",
    );
    expect(formatGuardSystemMessage({ ...notice, level: 2, tier: "advisory" }, health)).toBeNull();
  });

  it("status line and health text", () => {
    const figures = {
      usedTokens: 110_000,
      windowTokens: 200_000,
      autoCompactTokens: 167_000,
      tier: "warning",
      velocity: 2.5,
      forecastOperations: 11,
    };
    expect(formatStatusLine(figures)).toBe("ctx 55% used (110K/200K) · warning · +2.5%/op · ~11 ops to compact");
    expect(formatStatusLine({ ...figures, usedTokens: null, velocity: null, forecastOperations: null })).toBe(
      "ctx 200K window · warning",
    );
    expect(formatHealthText(health)).toContain("last compaction: 2026-11-22T09:00:00Z (auto, 170.3K -> ?)");
    expect(formatHealthText(null)).toContain("no measurement yet");
  });
});
