// The rolling summary of a bridge conversation (product document: last 5 messages verbatim, 6-20 summarised,
// 21+ folded): the stored history as summary messages, which of them need a per-message summary, and the new
// summary (the earlier one, then the assembly of the history). Pure: the service makes the per-message
// summaries with the configured provider.
import {
  type Assembly,
  type AssemblyPolicy,
  assembleContext,
  BRIDGE_PRESET,
  renderAssembly,
} from "../summaries/assemble.ts";
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

/**
 * The one-shot summary prompt (`summaries.provider: claude-cli`): everything before the verbatim tail, summarised by
 * one `claude -p` run in at most 200 words; the first line is the instruction (a test reads it).
 */
export const ONE_SHOT_SUMMARY_INSTRUCTIONS = [
  "Summarise the conversation below between a person and Claude Code in at most 200 words.",
  "A new Claude session will continue the conversation from your summary alone, so keep what the person asked for",
  "and prefers, what was decided and done, and what is still open, with file paths, names, commands and numbers",
  "exactly as written. Reply with the summary only, as plain prose.",
].join("\n");

/** The answer's allowance: 200 words and some room. */
export const ONE_SHOT_SUMMARY_MAX_TOKENS = 512;

/** The prompt for the messages before the ones kept verbatim; null when there are none. */
export function oneShotSummaryPrompt(earlier: readonly SummaryMessage[]): string | null {
  if (earlier.length === 0) return null;
  const lines = earlier.map((message) => `[${message.role}] ${message.text}`);
  return `${ONE_SHOT_SUMMARY_INSTRUCTIONS}\n\n<conversation>\n${lines.join("\n\n")}\n</conversation>`;
}

/** The history split for a one-shot summary: the verbatim tail (as the policy's assembly picks it) and the rest. */
export function splitForOneShot(
  messages: readonly SummaryMessage[],
  policy: AssemblyPolicy,
): { earlier: SummaryMessage[]; recent: Assembly["recent"] } {
  const assembly = assembleHistory(messages, new Map(), { ...policy, middleMessages: 0 });
  return { earlier: messages.slice(0, messages.length - assembly.recent.length), recent: assembly.recent };
}

/** This stretch of the conversation as the one-shot summary of its earlier messages, then the verbatim tail. */
export function renderOneShot(summary: string, earlierCount: number, recent: Assembly["recent"]): string {
  const head = `## Earlier conversation (${earlierCount} messages, summarised)\n${summary.trim()}`;
  return [head, renderAssembly({ text: "", tokens: 0, messages: 0 }, [], recent)]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The summary after a rollover: what was summarised before, then this stretch of the conversation. */
export function composeSummary(previous: string, assembly: Pick<Assembly, "text">): string {
  // The earlier summary keeps its newest third of the room; this stretch takes the rest.
  const parts = [capSummary(previous.trim(), Math.floor(SUMMARY_MAX_CHARS / 3)), assembly.text.trim()].filter(
    (part) => part !== "",
  );
  return capSummary(parts.join("\n\n"));
}
