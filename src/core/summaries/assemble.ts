// Hierarchical assembly of a long conversation within a token budget: the most recent messages verbatim,
// the ones before them as one summary each, and everything older folded into one aggregate (the "running
// summary"). One function; the Smart Context layout and the chat bridge's rolling policy are two presets.
import { estimateTokens } from "../estimate.ts";
import { truncateText } from "../transcript/text.ts";
import { foldSummaries } from "./fold.ts";
import type { MessageKind, MessageRole, SummaryMessage } from "./messages.ts";

export interface AssemblyPolicy {
  /** Newest messages kept verbatim (as many as fit the budget, at least the newest one). */
  recentMessages: number;
  /** Messages before those kept as one summary each. */
  middleMessages: number;
  /** The whole assembly's budget. */
  budgetTokens: number;
  /** The aggregate of everything older never takes more than this. */
  aggregateTokens: number;
}

/**
 * Smart Context layout, the document's layers: the recent 20 messages in full, messages 21-100 summarised,
 * older ones aggregated; configurable under `summaries.*`.
 */
export const SMART_CONTEXT_PRESET: AssemblyPolicy = {
  recentMessages: 20,
  middleMessages: 80,
  budgetTokens: 24_000,
  aggregateTokens: 2_000,
};

/** The chat bridge's rolling policy: last 5 verbatim, 6-20 summarised, older folded into the running summary. */
export const BRIDGE_PRESET: AssemblyPolicy = {
  recentMessages: 5,
  middleMessages: 15,
  budgetTokens: 12_000,
  aggregateTokens: 1_500,
};

export const ASSEMBLY_PRESETS = { smart: SMART_CONTEXT_PRESET, bridge: BRIDGE_PRESET } as const;
export type AssemblyPresetName = keyof typeof ASSEMBLY_PRESETS;

export interface AssembledMessage {
  uuid: string;
  role: MessageRole;
  kind: MessageKind;
  text: string;
  tokens: number;
  /** The count comes from the transcript's usage rather than the estimate. */
  exact: boolean;
}

export interface Assembly {
  aggregate: { text: string; tokens: number; messages: number };
  summarized: AssembledMessage[];
  recent: AssembledMessage[];
  /** The conversation's tokens in full (exact where the transcript gives them). */
  originalTokens: number;
  assembledTokens: number;
  /** assembled / original (0 for an empty conversation). */
  compressionRatio: number;
  budgetTokens: number;
  text: string;
}

export interface AssemblyInput {
  messages: readonly SummaryMessage[];
  /** The stored (or freshly made) summary of a message; a message without one falls back to its text, cut. */
  summaryOf: (message: SummaryMessage) => string | undefined;
  policy: AssemblyPolicy;
}

export function messageTokens(message: SummaryMessage): number {
  return message.exactTokens ?? estimateTokens(message.text);
}

export function assembleContext(input: AssemblyInput): Assembly {
  const { messages, policy } = input;
  const originalTokens = messages.reduce((sum, message) => sum + messageTokens(message), 0);
  let remaining = policy.budgetTokens;
  let start = messages.length;

  const recent: AssembledMessage[] = [];
  while (start > 0 && recent.length < policy.recentMessages) {
    const message = messages[start - 1] as SummaryMessage;
    const tokens = messageTokens(message);
    const reserve = start - 1 > 0 ? Math.min(policy.aggregateTokens, remaining / 4) : 0;
    if (recent.length > 0 && tokens > remaining - reserve) break;
    recent.unshift(item(message, message.text, tokens, message.exactTokens !== null));
    remaining -= tokens;
    start -= 1;
  }

  const summarized: AssembledMessage[] = [];
  while (start > 0 && summarized.length < policy.middleMessages) {
    const message = messages[start - 1] as SummaryMessage;
    const text = summaryText(input, message);
    const tokens = estimateTokens(text);
    const reserve = start - 1 > 0 ? Math.min(policy.aggregateTokens, remaining / 2) : 0;
    if (tokens > remaining - reserve) break;
    summarized.unshift(item(message, text, tokens, false));
    remaining -= tokens;
    start -= 1;
  }

  const older = messages.slice(0, start);
  const aggregateChars = Math.max(0, Math.min(policy.aggregateTokens, remaining)) * 4;
  const aggregateText =
    older.length === 0
      ? ""
      : foldSummaries(
          older.map((message) => ({ role: message.role, kind: message.kind, text: summaryText(input, message) })),
          aggregateChars,
        );
  const aggregate = { text: aggregateText, tokens: estimateTokens(aggregateText), messages: older.length };
  const assembledTokens =
    aggregate.tokens + [...summarized, ...recent].reduce((sum, message) => sum + message.tokens, 0);
  return {
    aggregate,
    summarized,
    recent,
    originalTokens,
    assembledTokens,
    compressionRatio: originalTokens === 0 ? 0 : assembledTokens / originalTokens,
    budgetTokens: policy.budgetTokens,
    text: renderAssembly(aggregate, summarized, recent),
  };
}

function summaryText(input: AssemblyInput, message: SummaryMessage): string {
  return input.summaryOf(message) ?? truncateText(message.text, 400);
}

function item(message: SummaryMessage, text: string, tokens: number, exact: boolean): AssembledMessage {
  return { uuid: message.uuid, role: message.role, kind: message.kind, text, tokens, exact };
}

const LABELS: Record<MessageKind, string> = {
  prompt: "user",
  reply: "assistant",
  "tool-result": "tool result",
  "compact-summary": "compaction summary",
};

export function renderAssembly(
  aggregate: Assembly["aggregate"],
  summarized: readonly AssembledMessage[],
  recent: readonly AssembledMessage[],
): string {
  const parts: string[] = [];
  if (aggregate.messages > 0) {
    parts.push(`## Earlier conversation (${aggregate.messages} messages, folded)\n${aggregate.text}`);
  }
  if (summarized.length > 0) {
    parts.push(
      `## Summarised (${summarized.length} messages)\n${summarized.map((m) => `[${LABELS[m.kind]}] ${m.text}`).join("\n")}`,
    );
  }
  if (recent.length > 0) {
    parts.push(
      `## Recent (${recent.length} messages, verbatim)\n${recent.map((m) => `[${LABELS[m.kind]}] ${m.text}`).join("\n\n")}`,
    );
  }
  return parts.join("\n\n");
}
