// The guard state's check (./state.ts, compiled from ./state-schema.ts; core/schema/checker.test.ts holds the
// compiled checker to zod on generated states): what a damaged or foreign file comes back as.
import { describe, expect, it } from "vitest";
import type { GuardState } from "./state.ts";
import { parseGuardState } from "./state.ts";

const state: GuardState = {
  version: 1,
  sessionId: "s1",
  updatedAt: "2026-11-22T10:00:00.000Z",
  operations: 12,
  usedTokens: 50_000,
  windowTokens: 200_000,
  autoCompactTokens: 167_000,
  tier: "ok",
  announcedLevel: 0,
  alarm: false,
  velocity: null,
  forecastOperations: null,
  thresholds: { warning: 25, advisory: 15, yellow: 7, critical: 3 },
  measurements: [{ op: 12, at: "2026-11-22T10:00:00.000Z", usedTokens: 50_000 }],
  lastCompaction: null,
};

describe("parseGuardState", () => {
  it("reads a state as written, unknown fields dropped", () => {
    expect(parseGuardState(JSON.parse(JSON.stringify({ ...state, later: 1 })))).toEqual(state);
  });

  it("anything else starts afresh", () => {
    for (const value of [
      null,
      [],
      "x",
      { ...state, version: 2 },
      { ...state, tier: "red" },
      { ...state, operations: 1.5 },
      { ...state, usedTokens: 2 ** 53 },
      { ...state, measurements: [{ op: 1, at: "t" }] },
      { ...state, thresholds: { ...state.thresholds, critical: "3" } },
      { ...state, lastCompaction: { at: null, trigger: null, preTokens: null } },
    ]) {
      expect(parseGuardState(value)).toBeNull();
    }
  });
});
