// What the context guard reports (`ctx_health`, `ctx://health`, `ctx status`): the health figures derived
// from a session's guard state.
import * as z from "zod/mini";
import { GUARD_TIERS, type GuardState, remainingPercent } from "./state.ts";
// The parts of a guard state the report shows.
import { CompactionSchema, MeasurementSchema, ThresholdsSchema } from "./state-schema.ts";

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
