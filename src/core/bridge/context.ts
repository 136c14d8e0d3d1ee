// The bridge's context manager, pure: the context size from the usage Claude Code reports (input + cache creation
// + cache read of the last turn, DESIGN.md), the 4-chars-a-token estimate only for text not sent yet, and the
// decision before each turn: continue the Claude session, or summarise and start a new one (over the soft
// limit, idle too long, or a turn that would start past the hard limit).
import { estimateTokens } from "../estimate.ts";
import type { BridgeSession, UsageTotals } from "./session.ts";

export interface ContextLimits {
  softLimitTokens: number;
  hardLimitTokens: number;
  idleMinutes: number;
}

/** The `usage` object of `claude -p --output-format json` (snake_case, any field may be missing). */
export interface ReportedUsage {
  input_tokens?: number | undefined;
  output_tokens?: number | undefined;
  cache_creation_input_tokens?: number | undefined;
  cache_read_input_tokens?: number | undefined;
}

const count = (value: number | undefined): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/**
 * The context of one API call: what the model read (input + cache creation + cache read), DESIGN.md's measure.
 * `claude -p`'s result sums its calls, so this is exact for it only when the turn made one call (`num_turns` 1).
 */
export function contextTokensOf(usage: ReportedUsage): number {
  return count(usage.input_tokens) + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens);
}

export function addUsage(totals: UsageTotals, usage: ReportedUsage): UsageTotals {
  return {
    inputTokens: totals.inputTokens + count(usage.input_tokens),
    outputTokens: totals.outputTokens + count(usage.output_tokens),
    cacheCreationTokens: totals.cacheCreationTokens + count(usage.cache_creation_input_tokens),
    cacheReadTokens: totals.cacheReadTokens + count(usage.cache_read_input_tokens),
  };
}

export type TurnDecision =
  | { action: "continue"; projectedTokens: number }
  | { action: "new-session"; reason: "first-turn"; projectedTokens: number }
  | { action: "summarize"; reason: "soft-limit" | "hard-limit" | "idle"; projectedTokens: number };

/**
 * What to do before sending `pending` (the text of the turn, or of every part still to come) in `session`.
 * `forPart` is true between the parts of one long message: there only the hard limit forces a new session,
 * so the parts stay in one Claude session whenever they can.
 */
export function decideTurn(
  session: BridgeSession,
  pending: string,
  limits: ContextLimits,
  now: Date,
  forPart = false,
): TurnDecision {
  const projectedTokens = session.contextTokens + estimateTokens(pending);
  if (session.claudeSessionId === null) return { action: "new-session", reason: "first-turn", projectedTokens };
  if (forPart) {
    return projectedTokens > limits.hardLimitTokens
      ? { action: "summarize", reason: "hard-limit", projectedTokens }
      : { action: "continue", projectedTokens };
  }
  if (isIdle(session, limits.idleMinutes, now)) return { action: "summarize", reason: "idle", projectedTokens };
  if (projectedTokens > limits.hardLimitTokens) return { action: "summarize", reason: "hard-limit", projectedTokens };
  if (projectedTokens > limits.softLimitTokens) return { action: "summarize", reason: "soft-limit", projectedTokens };
  return { action: "continue", projectedTokens };
}

export function isIdle(session: BridgeSession, idleMinutes: number, now: Date): boolean {
  return now.getTime() - Date.parse(session.lastActiveAt) > idleMinutes * 60_000;
}
