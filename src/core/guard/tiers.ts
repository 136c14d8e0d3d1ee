// The context guard's decisions (pure): one step per tool call turns the context reading into a tier, a
// velocity (percent of the window per operation), a forecast of operations left before auto-compaction and
// dynamic thresholds, and says when to speak: only on an escalation or when a velocity alarm starts.
// Units: every threshold is a percent of the window REMAINING before auto-compaction fires.
import {
  type Compaction,
  GUARD_TIERS,
  type GuardState,
  type GuardTier,
  type Measurement,
  remainingPercent,
  type Thresholds,
} from "./state.ts";
import type { ContextReading } from "./tokens.ts";

export interface GuardSettings {
  warningPercent: number;
  advisoryPercent: number;
  yellowPercent: number;
  criticalPercent: number;
  velocityPercentPerOperation: number;
  velocitySamples: number;
  dynamicWindow: number;
  floorPercent: number;
}

export interface GuardObservation {
  sessionId: string;
  at: string;
  reading: ContextReading | null;
  windowTokens: number;
  autoCompactTokens: number;
}

export type GuardAction = "save" | "checkpoint" | "snapshot";

export interface GuardNotice {
  level: number;
  tier: GuardTier;
  /** `escalation`: the tier rose; `velocity`: a velocity alarm started without a tier change. */
  reason: "escalation" | "velocity";
  actions: GuardAction[];
}

export interface GuardStep {
  state: GuardState;
  notice: GuardNotice | null;
  /** The step noticed a compaction (a new boundary, or the context shrank) and started the series afresh. */
  reset: boolean;
}

/**
 * How many operations of headroom each tier keeps at the largest per-operation step of the rolling window:
 * a session that takes big bites gets its warnings earlier (dynamic thresholds).
 */
export const HEADROOM_OPERATIONS: Thresholds = { warning: 8, advisory: 4, yellow: 2, critical: 1 };

const ACTIONS: readonly GuardAction[][] = [[], [], ["save"], ["save", "checkpoint"], ["save", "snapshot"]];

export function stepGuard(
  previous: GuardState | null,
  observation: GuardObservation,
  settings: GuardSettings,
): GuardStep {
  const { reading, windowTokens, autoCompactTokens, at } = observation;
  const prior = previous !== null && previous.sessionId === observation.sessionId ? previous : null;
  const operations = (prior?.operations ?? 0) + 1;
  const used = reading?.usedTokens ?? null;
  const lastUsed = prior?.measurements.at(-1)?.usedTokens ?? null;

  const boundary = reading?.compaction ?? null;
  const newBoundary = boundary !== null && !sameCompaction(boundary, prior?.lastCompaction ?? null);
  const shrank = used !== null && lastUsed !== null && used < lastUsed;
  const reset = prior !== null && (newBoundary || shrank);
  let lastCompaction = prior?.lastCompaction ?? null;
  if (newBoundary) lastCompaction = boundary;
  else if (shrank) lastCompaction = { at, trigger: null, preTokens: lastUsed, postTokens: used };

  const history = reset ? [] : (prior?.measurements ?? []);
  const keep = Math.max(settings.dynamicWindow, settings.velocitySamples);
  const measurements: Measurement[] =
    used === null ? history.slice(-keep) : [...history, { op: operations, at, usedTokens: used }].slice(-keep);

  const velocity = velocityOf(measurements.slice(-settings.velocitySamples), windowTokens);
  const thresholds = dynamicThresholds(measurements.slice(-settings.dynamicWindow), windowTokens, settings);
  const staticLevel = used === null ? 0 : levelFor(remainingPercent(used, autoCompactTokens, windowTokens), thresholds);
  const alarm = velocity !== null && velocity > settings.velocityPercentPerOperation;
  const level = Math.min(4, staticLevel + (alarm && used !== null ? 1 : 0));
  const announced = reset ? 0 : (prior?.announcedLevel ?? 0);
  const wasAlarmed = !reset && (prior?.alarm ?? false);

  let notice: GuardNotice | null = null;
  const tier = GUARD_TIERS[level] ?? "ok";
  if (level > announced) notice = { level, tier, reason: "escalation", actions: [...(ACTIONS[level] ?? [])] };
  else if (alarm && !wasAlarmed && level > 0) notice = { level, tier, reason: "velocity", actions: [] };

  const perOperation = forecastRate(velocity, measurements, windowTokens);
  const forecastOperations =
    used === null || perOperation === null ? null : Math.max(0, Math.floor((autoCompactTokens - used) / perOperation));

  return {
    reset,
    notice,
    state: {
      version: 1,
      sessionId: observation.sessionId,
      updatedAt: at,
      operations,
      usedTokens: used,
      windowTokens,
      autoCompactTokens,
      tier,
      announcedLevel: Math.max(announced, level),
      alarm,
      velocity: velocity === null ? null : round(velocity),
      forecastOperations,
      thresholds,
      measurements,
      lastCompaction,
    },
  };
}

/**
 * The guard's state right after a compaction Claude Code reported (PostCompact), before any reply has measured the
 * context again: the last figures from before it no longer hold, the series starts afresh, nothing is announced.
 * The next step reads the context from the transcript as usual (a boundary it finds there replaces this record).
 */
export function compactedState(previous: GuardState, compaction: { at: string; trigger: string | null }): GuardState {
  return {
    ...previous,
    updatedAt: compaction.at,
    usedTokens: null,
    tier: "ok",
    announcedLevel: 0,
    alarm: false,
    velocity: null,
    forecastOperations: null,
    measurements: [],
    lastCompaction: {
      at: compaction.at,
      trigger: compaction.trigger,
      preTokens: previous.usedTokens,
      postTokens: null,
    },
  };
}

function sameCompaction(a: Compaction, b: Compaction | null): boolean {
  return b !== null && a.at === b.at && a.preTokens === b.preTokens;
}

/** Percent of the window per operation from the first to the last of `samples`; null with fewer than two. */
export function velocityOf(samples: readonly Measurement[], windowTokens: number): number | null {
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined || last.op <= first.op) return null;
  return ((last.usedTokens - first.usedTokens) / (last.op - first.op) / windowTokens) * 100;
}

/** The static thresholds, raised to keep HEADROOM_OPERATIONS at the rolling window's largest step, never below the floor. */
export function dynamicThresholds(
  window: readonly Measurement[],
  windowTokens: number,
  settings: GuardSettings,
): Thresholds {
  let peak = 0;
  for (let i = 1; i < window.length; i++) {
    const a = window[i - 1];
    const b = window[i];
    if (a === undefined || b === undefined || b.op <= a.op) continue;
    peak = Math.max(peak, ((b.usedTokens - a.usedTokens) / (b.op - a.op) / windowTokens) * 100);
  }
  const at = (staticPercent: number, headroom: number) =>
    round(Math.min(100, Math.max(staticPercent, headroom * peak, settings.floorPercent)));
  return {
    warning: at(settings.warningPercent, HEADROOM_OPERATIONS.warning),
    advisory: at(settings.advisoryPercent, HEADROOM_OPERATIONS.advisory),
    yellow: at(settings.yellowPercent, HEADROOM_OPERATIONS.yellow),
    critical: at(settings.criticalPercent, HEADROOM_OPERATIONS.critical),
  };
}

/** 0 (ok) to 4 (critical) for a percent remaining. */
export function levelFor(remaining: number, thresholds: Thresholds): number {
  if (remaining <= thresholds.critical) return 4;
  if (remaining <= thresholds.yellow) return 3;
  if (remaining <= thresholds.advisory) return 2;
  if (remaining <= thresholds.warning) return 1;
  return 0;
}

/** Tokens per operation for the forecast: the velocity, else the rolling window's mean; null when not growing. */
function forecastRate(
  velocity: number | null,
  measurements: readonly Measurement[],
  windowTokens: number,
): number | null {
  if (velocity !== null && velocity > 0) return (velocity / 100) * windowTokens;
  const mean = velocityOf(measurements, windowTokens);
  return mean !== null && mean > 0 ? (mean / 100) * windowTokens : null;
}

const round = (n: number) => Math.round(n * 100) / 100;
