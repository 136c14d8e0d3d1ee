// What the context guard keeps per session (`.ctx/guard/<session>.json`), as a zod schema: the one description of
// the file. The hook after every tool call loads no zod: it checks the file with the checker compiled from this
// schema at build time (./state-schema.compiled.ts, written by build/compile-schemas.ts).
import * as z from "zod/mini";
import { GUARD_TIERS } from "./tier-names.ts";

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

/** Percent of the window remaining before auto-compaction, at which each tier starts. */
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
