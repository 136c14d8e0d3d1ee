// What the context guard keeps per session (`.ctx/guard/<session>.json`) and what it reports (`ctx_health`,
// `ctx://health`, `ctx status`): the schemas, and the health figures derived from a state.
import * as z from "zod/mini";

export const GUARD_TIERS = ["ok", "warning", "advisory", "yellow", "critical"] as const;
export type GuardTier = (typeof GUARD_TIERS)[number];

export const MeasurementSchema = z.object({
  /** The operation (tool call) number within the session when measured. */
  op: z.int(),
  at: z.string(),
  usedTokens: z.int(),
});
export type Measurement = z.infer<typeof MeasurementSchema>;

export const CompactionSchema = z.object({
  /** When it happened (the boundary's timestamp), or when the guard noticed the context had shrunk. */
  at: z.nullable(z.string()),
  trigger: z.nullable(z.string()),
  preTokens: z.nullable(z.number()),
  postTokens: z.nullable(z.number()),
});
export type Compaction = z.infer<typeof CompactionSchema>;

export const ThresholdsSchema = z.object({
  warning: z.number(),
  advisory: z.number(),
  yellow: z.number(),
  critical: z.number(),
});
export type Thresholds = z.infer<typeof ThresholdsSchema>;

export const GuardStateSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  updatedAt: z.string(),
  /** Tool calls seen (PostToolUse runs). */
  operations: z.int(),
  usedTokens: z.nullable(z.int()),
  windowTokens: z.int(),
  autoCompactTokens: z.int(),
  tier: z.enum(GUARD_TIERS),
  /** The highest level announced since the session started or last compacted (0-4). */
  announcedLevel: z.int(),
  alarm: z.boolean(),
  /** Percent of the window consumed per operation over the last measurements. */
  velocity: z.nullable(z.number()),
  forecastOperations: z.nullable(z.int()),
  /** The thresholds in force (percent of the window remaining before auto-compaction). */
  thresholds: ThresholdsSchema,
  measurements: z.array(MeasurementSchema),
  lastCompaction: z.nullable(CompactionSchema),
});
export type GuardState = z.infer<typeof GuardStateSchema>;

/** The state from a file's JSON; null (start afresh) for anything else. */
export function parseGuardState(value: unknown): GuardState | null {
  const parsed = GuardStateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const HealthSchema = z.object({
  sessionId: z.string(),
  tier: z.enum(GUARD_TIERS),
  usedTokens: z.nullable(z.int()),
  windowTokens: z.int(),
  /** usedTokens / windowTokens, in percent (what Claude Code's status line calls used_percentage). */
  percentUsed: z.nullable(z.number()),
  /** Percent of the window left before auto-compaction fires: what the tiers are measured in. */
  percentRemaining: z.nullable(z.number()),
  autoCompactTokens: z.int(),
  /** Percent of the window per operation (tool call) over the last measurements. */
  velocity: z.nullable(z.number()),
  /** Operations (tool calls) left before auto-compaction at the current velocity. */
  forecastOperations: z.nullable(z.int()),
  velocityAlarm: z.boolean(),
  thresholds: ThresholdsSchema,
  lastCompaction: z.nullable(CompactionSchema),
  measuredAt: z.string(),
  recentMeasurements: z.array(MeasurementSchema),
});
export type Health = z.infer<typeof HealthSchema>;

const round = (n: number) => Math.round(n * 100) / 100;

export function healthOf(state: GuardState): Health {
  const used = state.usedTokens;
  return {
    sessionId: state.sessionId,
    tier: state.tier,
    usedTokens: used,
    windowTokens: state.windowTokens,
    percentUsed: used === null ? null : round((used / state.windowTokens) * 100),
    percentRemaining: used === null ? null : round(remainingPercent(used, state.autoCompactTokens, state.windowTokens)),
    autoCompactTokens: state.autoCompactTokens,
    velocity: state.velocity,
    forecastOperations: state.forecastOperations,
    velocityAlarm: state.alarm,
    thresholds: state.thresholds,
    lastCompaction: state.lastCompaction,
    measuredAt: state.updatedAt,
    recentMeasurements: state.measurements,
  };
}

/** Percent of the window left before auto-compaction (never below 0). */
export function remainingPercent(usedTokens: number, autoCompactTokens: number, windowTokens: number): number {
  return Math.max(0, ((autoCompactTokens - usedTokens) / windowTokens) * 100);
}
