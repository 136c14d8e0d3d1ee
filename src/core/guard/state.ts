// What the context guard keeps per session (`.ctx/guard/<session>.json`): its shape (./state-schema.ts, in zod) and
// its check without zod, for the hook after every tool call (what it reports is in ./health.ts).

import { checkGuardState } from "./state-schema.compiled.ts";
import type { GuardState } from "./state-schema.ts";

export type { Compaction, GuardState, Measurement, Thresholds } from "./state-schema.ts";
export { GUARD_TIERS, type GuardTier } from "./tier-names.ts";

/** The state from a file's JSON (unknown fields dropped); null (start afresh) for anything else. */
export function parseGuardState(value: unknown): GuardState | null {
  const checked = checkGuardState(value);
  return checked.ok ? checked.value : null;
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
