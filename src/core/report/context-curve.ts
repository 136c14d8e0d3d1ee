// The context-window curve of one session for `ctx report`: one point per main-chain reply that carries real usage
// (each tool call is one), the compactions (compact_boundary lines), and the guard tiers as the guard would have
// announced them, replayed through the same pure `stepGuard` the PostToolUse hook runs. Snapshots are placed at the
// last point at or before the time they were taken.

import type { GuardState, GuardTier } from "../guard/state.ts";
import { type GuardSettings, stepGuard } from "../guard/tiers.ts";
import { readContextFromTail } from "../guard/tokens.ts";

export interface CurvePoint {
  /** 1-based position among the points. */
  index: number;
  at: string | null;
  usedTokens: number;
  tier: GuardTier;
}

export interface CurveCompaction {
  /** The point after which it happened (0 = before the first point). */
  afterIndex: number;
  at: string | null;
  trigger: string | null;
  preTokens: number | null;
  postTokens: number | null;
}

export interface CurveTierMark {
  index: number;
  tier: GuardTier;
  reason: "escalation" | "velocity";
}

export interface CurveSnapshotMark {
  index: number;
  id: string;
  trigger: string;
  at: string;
}

export interface ContextCurve {
  points: CurvePoint[];
  compactions: CurveCompaction[];
  tierMarks: CurveTierMark[];
  snapshots: CurveSnapshotMark[];
  windowTokens: number;
  autoCompactTokens: number;
  model: string | null;
  peakTokens: number;
}

export interface CurveInput {
  sessionId: string;
  /** The transcript's lines, oldest first. */
  lines: readonly string[];
  settings: GuardSettings;
  /** The window and where auto-compaction fires, decided by the caller from the model and config. */
  window: (model: string | null, peakTokens: number) => { windowTokens: number; autoCompactTokens: number };
  snapshots: ReadonlyArray<{ id: string; trigger: string; createdAt: string }>;
}

export function buildContextCurve(input: CurveInput): ContextCurve {
  const readings = input.lines
    .map((line) =>
      line.includes('"assistant"') || line.includes('"compact_boundary"') ? readContextFromTail(line, true) : null,
    )
    .filter((reading) => reading !== null);
  const model = readings.find((r) => r.model !== null)?.model ?? null;
  const peak = Math.max(0, ...readings.map((r) => (r.source === "usage" ? (r.usedTokens ?? 0) : 0)));
  const { windowTokens, autoCompactTokens } = input.window(model, peak);

  const points: CurvePoint[] = [];
  const compactions: CurveCompaction[] = [];
  const tierMarks: CurveTierMark[] = [];
  let state: GuardState | null = null;
  for (const reading of readings) {
    const at = reading.at ?? state?.updatedAt ?? "";
    if (reading.compaction !== null) {
      compactions.push({ afterIndex: points.length, ...reading.compaction });
    }
    const step = stepGuard(
      state,
      { sessionId: input.sessionId, at, reading, windowTokens, autoCompactTokens },
      input.settings,
    );
    state = step.state;
    if (reading.source !== "usage" || reading.usedTokens === null) continue;
    points.push({ index: points.length + 1, at: reading.at, usedTokens: reading.usedTokens, tier: step.state.tier });
    if (step.notice !== null)
      tierMarks.push({ index: points.length, tier: step.notice.tier, reason: step.notice.reason });
  }

  const snapshots: CurveSnapshotMark[] = [];
  for (const snapshot of input.snapshots) {
    const taken = Date.parse(snapshot.createdAt);
    let index = 0;
    for (const point of points) if (point.at !== null && Date.parse(point.at) <= taken) index = point.index;
    if (index === 0 && points.length > 0) index = 1;
    if (index > 0) snapshots.push({ index, id: snapshot.id, trigger: snapshot.trigger, at: snapshot.createdAt });
  }
  return { points, compactions, tierMarks, snapshots, windowTokens, autoCompactTokens, model, peakTokens: peak };
}
