// What the context guard keeps per session (`.ctx/guard/<session>.json`): its shape and its check (what it reports
// is in ./health.ts, kept apart so the per-tool-call hook does not build the report's schema).
import { isRecord } from "../json/record.ts";

export const GUARD_TIERS = ["ok", "warning", "advisory", "yellow", "critical"] as const;
export type GuardTier = (typeof GUARD_TIERS)[number];

export interface Measurement {
  /** The operation (tool call) number within the session when measured. */
  op: number;
  at: string;
  usedTokens: number;
}

export interface Compaction {
  /** When it happened (the boundary's timestamp), or when the guard noticed the context had shrunk. */
  at: string | null;
  trigger: string | null;
  preTokens: number | null;
  postTokens: number | null;
}

export interface Thresholds {
  warning: number;
  advisory: number;
  yellow: number;
  critical: number;
}

export interface GuardState {
  version: 1;
  sessionId: string;
  updatedAt: string;
  /** Tool calls seen (PostToolUse runs). */
  operations: number;
  usedTokens: number | null;
  windowTokens: number;
  autoCompactTokens: number;
  tier: GuardTier;
  /** The highest level announced since the session started or last compacted (0-4). */
  announcedLevel: number;
  alarm: boolean;
  /** Percent of the window consumed per operation over the last measurements. */
  velocity: number | null;
  forecastOperations: number | null;
  /** The thresholds in force (percent of the window remaining before auto-compaction). */
  thresholds: Thresholds;
  measurements: Measurement[];
  lastCompaction: Compaction | null;
}

// Checked by hand, not by zod: this runs after every tool call, and zod costs that process more to load and
// build than the rest of its work (bench/hooks.bench.ts). state.test.ts holds it to the zod schema it replaced.
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === "string";
const orNull =
  <T>(check: (value: unknown) => value is T) =>
  (value: unknown): value is T | null =>
    value === null || check(value);

function measurementOf(value: unknown): Measurement | null {
  if (!isRecord(value) || !isInt(value.op) || !isString(value.at) || !isInt(value.usedTokens)) return null;
  return { op: value.op, at: value.at, usedTokens: value.usedTokens };
}

function compactionOf(value: unknown): Compaction | null {
  if (!isRecord(value)) return null;
  const { at, trigger, preTokens, postTokens } = value;
  if (!orNull(isString)(at) || !orNull(isString)(trigger) || !orNull(isNumber)(preTokens)) return null;
  return orNull(isNumber)(postTokens) ? { at, trigger, preTokens, postTokens } : null;
}

function thresholdsOf(value: unknown): Thresholds | null {
  if (!isRecord(value)) return null;
  const { warning, advisory, yellow, critical } = value;
  const numbers = isNumber(warning) && isNumber(advisory) && isNumber(yellow) && isNumber(critical);
  return numbers ? { warning, advisory, yellow, critical } : null;
}

/** The state from a file's JSON (unknown fields dropped); null (start afresh) for anything else. */
export function parseGuardState(value: unknown): GuardState | null {
  if (!isRecord(value) || value.version !== 1) return null;
  const { sessionId, updatedAt, operations, usedTokens, windowTokens, autoCompactTokens, tier } = value;
  if (!isString(sessionId) || !isString(updatedAt) || !isInt(operations) || !orNull(isInt)(usedTokens)) return null;
  if (!isInt(windowTokens) || !isInt(autoCompactTokens) || !GUARD_TIERS.includes(tier as GuardTier)) return null;
  const { announcedLevel, alarm, velocity, forecastOperations } = value;
  if (!isInt(announcedLevel) || typeof alarm !== "boolean" || !orNull(isNumber)(velocity)) return null;
  if (!orNull(isInt)(forecastOperations)) return null;
  const thresholds = thresholdsOf(value.thresholds);
  if (thresholds === null || !Array.isArray(value.measurements)) return null;
  const measurements = value.measurements.map(measurementOf);
  if (measurements.some((measurement) => measurement === null)) return null;
  const lastCompaction = value.lastCompaction === null ? null : compactionOf(value.lastCompaction);
  if (value.lastCompaction !== null && lastCompaction === null) return null;
  return {
    version: 1,
    sessionId,
    updatedAt,
    operations,
    usedTokens,
    windowTokens,
    autoCompactTokens,
    tier: tier as GuardTier,
    announcedLevel,
    alarm,
    velocity,
    forecastOperations,
    thresholds,
    measurements: measurements as Measurement[],
    lastCompaction,
  };
}

/**
 * Percent of the window left before auto-compaction (never below 0). Multiplied before dividing, and rounded to
 * 1e-9: `(14_000 / 200_000) * 100` is 7.000000000000001, which put exactly 7% left (the yellow tier's edge)
 * outside the tier.
 */
export function remainingPercent(usedTokens: number, autoCompactTokens: number, windowTokens: number): number {
  const percent = ((autoCompactTokens - usedTokens) * 100) / windowTokens;
  return Math.max(0, Math.round(percent * 1e9) / 1e9);
}
