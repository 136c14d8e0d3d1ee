import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/defaults.ts";
import { healthOf } from "./health.ts";
import { type GuardState, remainingPercent } from "./state.ts";
import { dynamicThresholds, type GuardNotice, type GuardSettings, levelFor, stepGuard } from "./tiers.ts";
import type { ContextReading } from "./tokens.ts";

const SETTINGS: GuardSettings = defaultConfig().guard;
const WINDOW = 200_000;
const AUTO = 167_000;

const usage = (usedTokens: number): ContextReading => ({
  usedTokens,
  source: "usage",
  model: "m",
  at: null,
  compaction: null,
});

/** Runs a recorded series of readings through the guard; returns each step's notice and the final state. */
function replay(
  series: Array<ContextReading | number | null>,
  settings: GuardSettings = SETTINGS,
  start: GuardState | null = null,
) {
  let state = start;
  const notices: Array<GuardNotice | null> = [];
  const resets: boolean[] = [];
  series.forEach((item, i) => {
    const reading = typeof item === "number" ? usage(item) : item;
    const step = stepGuard(
      state,
      {
        sessionId: "s1",
        at: `2026-11-22T10:00:${String(i).padStart(2, "0")}Z`,
        reading,
        windowTokens: WINDOW,
        autoCompactTokens: AUTO,
      },
      settings,
    );
    notices.push(step.notice);
    resets.push(step.reset);
    state = step.state;
  });
  return { notices, resets, state: state as GuardState };
}

const spoken = (notices: Array<GuardNotice | null>) =>
  notices.flatMap((n, i) => (n === null ? [] : [[i, n.tier, n.reason, n.actions.join("+")]]));

describe("stepGuard: tiers over a steadily growing session (1% of the window per tool call)", () => {
  const series = Array.from({ length: 36 }, (_, i) => 100_000 + i * 2_000); // 100K .. 170K
  it("speaks once per tier on the way up, with the tier's actions, never in between", () => {
    const { notices, state } = replay(series);
    // Remaining = (167K - used) / 200K: warning <= 30% at 107K, advisory <= 15% at 137K,
    // yellow <= 7% at 153K, critical <= 3% at 161K.
    expect(spoken(notices)).toEqual([
      [4, "warning", "escalation", ""],
      [19, "advisory", "escalation", "save"],
      [27, "yellow", "escalation", "save+checkpoint"],
      [31, "critical", "escalation", "save+snapshot"],
    ]);
    expect(state).toMatchObject({ tier: "critical", announcedLevel: 4, velocity: 1, alarm: false, operations: 36 });
    expect(state.measurements).toHaveLength(10);
  });

  it("forecasts operations left before auto-compaction from the velocity", () => {
    const { state } = replay([100_000, 102_000, 104_000, 106_000, 108_000]);
    expect(state.velocity).toBe(1);
    expect(state.forecastOperations).toBe(29); // (167,000 - 108,000) / 2,000 = 29.5
    expect(healthOf(state)).toMatchObject({ percentUsed: 54, percentRemaining: 29.5, tier: "warning" });
  });
});

describe("stepGuard: velocity", () => {
  it("above 5% of the window per operation escalates one tier early and raises the thresholds", () => {
    // 6% per call (12K tokens): at 64K, 51.5% remains, above every static threshold, but the alarm escalates.
    const { notices, state } = replay([40_000, 52_000, 64_000, 76_000]);
    expect(spoken(notices)).toEqual([
      // Two measurements already give a velocity: 6% per call at 52K (57.5% remaining, level 0 + alarm).
      [1, "warning", "escalation", ""],
      // Dynamic thresholds at a 6% peak step: warning 48, advisory 24; 45.5% remaining is warning + alarm.
      [3, "advisory", "escalation", "save"],
    ]);
    expect(state).toMatchObject({
      alarm: true,
      velocity: 6,
      thresholds: { warning: 48, advisory: 24, yellow: 12, critical: 6 },
    });
  });

  it("an alarm that comes with a rise is one escalation, and nothing more is said while it lasts", () => {
    const slow = [100_000, 102_000, 104_000, 106_000, 108_000]; // warning at 108K
    const { notices } = replay([...slow, 109_000, 110_000, 121_000, 132_000, 133_000, 134_000]);
    expect(spoken(notices)).toEqual([
      [4, "warning", "escalation", ""],
      // 110K -> 132K over two calls = 5.5%/op: an alarm, and the 11K step raises advisory to 22%:
      // 17.5% remaining is advisory, + alarm = yellow (one escalation, with its save and checkpoint).
      [8, "yellow", "escalation", "save+checkpoint"],
    ]);
  });

  it("a pure velocity notice when the alarm starts at a tier already announced, once", () => {
    const prior = replay([130_000, 130_000]).state;
    // 130K -> 152K over two calls = 5.5%/op: critical with the raised thresholds, already announced.
    const { notices } = replay([152_000, 153_000], SETTINGS, { ...prior, announcedLevel: 4 });
    expect(spoken(notices)).toEqual([[0, "critical", "velocity", ""]]);
  });
});

describe("stepGuard: compaction resets", () => {
  it("a shrinking context is a compaction: the series restarts and the tiers can be announced again", () => {
    const after = Array.from({ length: 37 }, (_, i) => 36_000 + i * 2_000); // back up to 108K, 1% per call
    const { notices, resets, state } = replay([140_000, 142_000, ...after]);
    expect(spoken(notices)).toEqual([
      [0, "advisory", "escalation", "save"],
      [38, "warning", "escalation", ""],
    ]);
    expect(resets.flatMap((reset, i) => (reset ? [i] : []))).toEqual([2]);
    expect(state.lastCompaction).toEqual({
      at: "2026-11-22T10:00:02Z",
      trigger: null,
      preTokens: 142_000,
      postTokens: 36_000,
    });
  });

  it("a new boundary (no reply yet) resets once; the same boundary again does not", () => {
    const boundary: ContextReading = {
      usedTokens: null,
      source: "unknown",
      model: null,
      at: null,
      compaction: { at: "2026-02-10T22:00:00Z", trigger: "auto", preTokens: 170_251, postTokens: null },
    };
    const { notices, resets, state } = replay([150_000, boundary, boundary, 36_081]);
    expect(resets).toEqual([false, true, false, false]);
    expect(spoken(notices)).toEqual([[0, "advisory", "escalation", "save"]]);
    expect(state).toMatchObject({
      tier: "ok",
      announcedLevel: 0,
      usedTokens: 36_081,
      measurements: [{ usedTokens: 36_081 }],
    });
    expect(state.lastCompaction).toMatchObject({ trigger: "auto", preTokens: 170_251 });
  });

  it("an unknown reading changes nothing but the operation count", () => {
    const { state, notices } = replay([null, null]);
    expect(notices).toEqual([null, null]);
    expect(state).toMatchObject({ operations: 2, usedTokens: null, tier: "ok", measurements: [] });
  });
});

describe("dynamicThresholds and levelFor", () => {
  const m = (op: number, usedTokens: number) => ({ op, at: "", usedTokens });
  it("static with no steps; raised to headroom x the largest step; never below the floor", () => {
    expect(dynamicThresholds([], WINDOW, SETTINGS)).toEqual({ warning: 30, advisory: 15, yellow: 7, critical: 3 });
    const bursty = [m(1, 10_000), m(2, 12_000), m(3, 32_000), m(4, 33_000)]; // peak step 20K = 10%
    expect(dynamicThresholds(bursty, WINDOW, SETTINGS)).toEqual({
      warning: 80,
      advisory: 40,
      yellow: 20,
      critical: 10,
    });
    const low = { ...SETTINGS, criticalPercent: 1, yellowPercent: 2, floorPercent: 4 };
    expect(dynamicThresholds([m(1, 1_000), m(2, 1_100)], WINDOW, low)).toMatchObject({ yellow: 4, critical: 4 });
    // Only the rolling window counts: the old burst has left it.
    expect(dynamicThresholds(bursty.slice(2), WINDOW, SETTINGS).warning).toBe(30);
  });

  it("levelFor reads percent remaining", () => {
    const t = { warning: 30, advisory: 15, yellow: 7, critical: 3 };
    expect([50, 30, 15.1, 15, 7, 3.5, 3, 0].map((r) => levelFor(r, t))).toEqual([0, 1, 1, 2, 3, 3, 4, 4]);
  });
});

describe("tier edges", () => {
  it("exactly 7% left (153K of 200K, auto-compaction at 167K) is the yellow tier, not a float's width outside it", () => {
    expect(remainingPercent(153_000, AUTO, WINDOW)).toBe(7);
    expect(remainingPercent(161_000, AUTO, WINDOW)).toBe(3);
    const thresholds = { warning: 30, advisory: 15, yellow: 7, critical: 3 };
    expect(levelFor(remainingPercent(153_000, AUTO, WINDOW), thresholds)).toBe(3);
    expect(levelFor(remainingPercent(161_000, AUTO, WINDOW), thresholds)).toBe(4);
  });
});
