// The bridge's context manager, pure: the context size from the usage Claude Code reports (input + cache creation +
// cache read of the last turn: docs/claude-code-facts.md), the 4-chars-a-token estimate only for text not sent yet, and
// the decision before each turn: continue the Claude session, or summarise and start a new one (over the soft limit,
// idle too long, or a turn that would start past the hard limit). A long message is judged whole before its first part:
// the real usage plus all its parts and the replies between them (issue #22, break 2).
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
 * The context of one API call: what the model read (input + cache creation + cache read), the guard's measure.
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
 * Room kept for each reply between the parts of one message. A part asks for a brief acknowledgement, and that
 * reply is input of the next part's turn; 1,000 tokens (about 4,000 characters) holds a generous one and Claude
 * Code's framing of the next prompt (a few dozen tokens). What a part's tool calls add cannot be foreseen: the
 * real usage after each part is checked again before the next (decideTurn with `forPart`).
 */
export const PART_REPLY_TOKENS = 1_000;

/**
 * The tokens the prompts still to send add to the context by the time the last of them starts: their text at
 * 4 characters a token, plus a reply allowance for every part after which another one follows.
 */
export function pendingTokens(prompts: readonly string[]): number {
  const text = prompts.reduce((sum, prompt) => sum + estimateTokens(prompt), 0);
  return text + Math.max(0, prompts.length - 1) * PART_REPLY_TOKENS;
}

/**
 * What to do before sending `pending` (the prompt of the turn; for a long message every part still to come) in
 * `session`. Before part 1 the whole message counts, so a message that will not fit under the limits rolls over
 * before it starts, never between its parts when the estimate can tell. `forPart` is true between the parts of
 * one long message: there only the hard limit forces a new session, so the parts stay in one Claude session
 * whenever they can.
 */
export function decideTurn(
  session: BridgeSession,
  pending: readonly string[],
  limits: ContextLimits,
  now: Date,
  forPart = false,
): TurnDecision {
  const projectedTokens = session.contextTokens + pendingTokens(pending);
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
