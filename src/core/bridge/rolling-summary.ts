// The rolling summary of a bridge conversation (product document: last 5 messages verbatim, 6-20 summarised,
// 21+ folded): the stored history as summary messages, which of them need a per-message summary, and the new
// summary (the earlier one, then the assembly of the history). Pure: the service makes the per-message
// summaries with the configured provider.
import { type Assembly, type AssemblyPolicy, assembleContext, BRIDGE_PRESET } from "../summaries/assemble.ts";
import type { SummaryRequest } from "../summaries/extractive.ts";
import type { SummaryMessage } from "../summaries/messages.ts";
import { type BridgeSession, capSummary, SUMMARY_MAX_CHARS } from "./session.ts";

/**
 * The bridge preset's layers (5 verbatim, 15 summarised, older folded) within what a summary may hold: the
 * summary rides along as the system prompt of every turn of the next Claude session, so it stays small.
 */
export const ROLLING_SUMMARY_POLICY: AssemblyPolicy = {
  ...BRIDGE_PRESET,
  budgetTokens: Math.floor((SUMMARY_MAX_CHARS * 2) / 3 / 4),
  aggregateTokens: Math.min(BRIDGE_PRESET.aggregateTokens, 1_000),
};

export function historyMessages(session: BridgeSession): SummaryMessage[] {
  return session.history.map((entry, index) => ({
    uuid: `h${index}`,
    role: entry.role,
    kind: entry.role === "user" ? "prompt" : "reply",
    text: entry.text,
    exactTokens: null,
    timestamp: entry.at,
  }));
}

/** The messages the policy summarises one by one (the ones before the verbatim tail), with their neighbours. */
export function summaryRequestsFor(messages: readonly SummaryMessage[], policy: AssemblyPolicy): SummaryRequest[] {
  const end = Math.max(0, messages.length - policy.recentMessages);
  const start = Math.max(0, end - policy.middleMessages);
  const requests: SummaryRequest[] = [];
  for (let index = start; index < end; index += 1) {
    const message = messages[index] as SummaryMessage;
    requests.push({ message, before: messages[index - 1] ?? null, after: messages[index + 1] ?? null });
  }
  return requests;
}

export function assembleHistory(
  messages: readonly SummaryMessage[],
  summaries: ReadonlyMap<string, string>,
  policy: AssemblyPolicy,
): Assembly {
  return assembleContext({ messages, policy, summaryOf: (message) => summaries.get(message.uuid) });
}

/** The summary after a rollover: what was summarised before, then this stretch of the conversation. */
export function composeSummary(previous: string, assembly: Assembly): string {
  // The earlier summary keeps its newest third of the room; this stretch takes the rest.
  const parts = [capSummary(previous.trim(), Math.floor(SUMMARY_MAX_CHARS / 3)), assembly.text.trim()].filter(
    (part) => part !== "",
  );
  return capSummary(parts.join("\n\n"));
}
