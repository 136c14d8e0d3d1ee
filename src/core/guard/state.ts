// What the context guard keeps per session (`.ctx/guard/<session>.json`): the schema (what it reports is in
// ./health.ts, kept apart so the per-tool-call hook does not build the report's schema).
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

/**
 * Percent of the window left before auto-compaction (never below 0). Multiplied before dividing, and rounded to
 * 1e-9: `(14_000 / 200_000) * 100` is 7.000000000000001, which put exactly 7% left (the yellow tier's edge)
 * outside the tier.
 */
export function remainingPercent(usedTokens: number, autoCompactTokens: number, windowTokens: number): number {
  const percent = ((autoCompactTokens - usedTokens) * 100) / windowTokens;
  return Math.max(0, Math.round(percent * 1e9) / 1e9);
}
