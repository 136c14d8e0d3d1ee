// ctx_health: the context guard's telemetry for a session (the newest measured one by default): tier,
// tokens used of the window, percent, velocity, forecast, last compaction and the recent measurements.
import * as z from "zod/mini";
import { type Health, HealthSchema, healthOf } from "../../core/guard/health.ts";
import { formatHealthText } from "../../core/guard/text.ts";
import { CtxError } from "../../errors.ts";
import { readGuardState, readNewestGuardState } from "../../store/guard/guard-store.ts";
import { defineTool } from "../define-tool.ts";

export const HealthToolInputSchema = {
  session_id: z
    .optional(z.string().check(z.minLength(1), z.maxLength(200)))
    .check(z.describe("The Claude Code session to report (default: the one measured most recently in this project).")),
  measurements: z
    .optional(z.int().check(z.minimum(0), z.maximum(10)))
    .check(z.describe("How many recent measurements to include (default 10).")),
};

/** The health of one session, or of the newest measured; null when the guard has measured nothing here. */
export function readHealth(projectRoot: string, sessionId?: string): Health | null {
  if (sessionId === undefined) {
    const newest = readNewestGuardState(projectRoot);
    return newest === null ? null : healthOf(newest);
  }
  const state = readGuardState(projectRoot, sessionId);
  if (state === null) {
    throw new CtxError("NOT_FOUND", `the context guard has no measurement for session ${sessionId}`, {
      hint: "it measures after each tool call once `ctx init` wired the hooks; call ctx_health without session_id for the newest",
    });
  }
  return healthOf(state);
}

export const healthTool = defineTool({
  name: "ctx_health",
  title: "ctx health",
  description:
    "Context-window health from the ctx context guard: tier (ok/warning/advisory/yellow/critical), tokens used of " +
    "the window, percent used and left before auto-compaction, velocity (percent of the window per tool call), " +
    "forecast of tool calls left, last compaction, recent measurements. Read-only.",
  input: HealthToolInputSchema,
  output: z.object({ health: z.nullable(HealthSchema) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ session_id, measurements }, deps) => {
    const found = readHealth(deps.projectRoot, session_id);
    const keep = measurements ?? 10;
    const health =
      found === null ? null : { ...found, recentMeasurements: keep === 0 ? [] : found.recentMeasurements.slice(-keep) };
    return { text: formatHealthText(health), structured: { health } };
  },
});
