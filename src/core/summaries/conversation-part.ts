// The conversation part of a restore and of the compact re-injection (pure): the saved state's conversation
// assembled by `assembleContext` (recent messages verbatim, the ones before them by their stored summary,
// everything older folded), within a character cap. A message with no stored summary gets an extractive one
// made here (offline, deterministic; never an LLM: this runs on hook paths too). Stored summaries are used
// only when made from the same text (their `sourceChars`), like the sidecar's own staleness rule.
import { type RenderOptions, renderRestoreText } from "../context/restore-text.ts";
import type { ContextState } from "../context/schema.ts";
import { CHARS_PER_TOKEN } from "../estimate.ts";
import { type AssemblyPolicy, assembleContext } from "./assemble.ts";
import { summarizeExtractive } from "./extractive.ts";
import { neighboursOf, type SummaryMessage } from "./messages.ts";
import type { SummaryRecord } from "./sidecar.ts";

/** The state's conversation as summary messages (notices left out: they are Claude Code's, not the session's). */
export function conversationMessages(state: ContextState): SummaryMessage[] {
  return state.conversation
    .filter((message) => message.kind !== "notice")
    .map((message) => ({
      uuid: message.uuid,
      role: message.role,
      kind: message.kind === "notice" ? "prompt" : message.kind,
      text: message.text,
      exactTokens: message.tokens,
      timestamp: message.timestamp,
    }));
}

export interface ConversationPart {
  text: string;
  recent: number;
  summarized: number;
  folded: number;
  /** Messages whose stored summary was used (the rest were summarised extractively here). */
  storedSummaries: number;
}

/**
 * The assembled conversation within `maxChars` (its header included); "" when there is no conversation or
 * no room. The token budget is the policy's, lowered to what the cap holds.
 */
export function renderConversationPart(
  state: ContextState,
  stored: Readonly<Record<string, SummaryRecord>>,
  policy: AssemblyPolicy,
  maxChars: number,
): ConversationPart {
  const messages = conversationMessages(state);
  const empty = { text: "", recent: 0, summarized: 0, folded: 0, storedSummaries: 0 };
  if (messages.length === 0 || maxChars < 200) return empty;
  let storedSummaries = 0;
  const index = new Map(messages.map((message, position) => [message.uuid, position]));
  const summaryOf = (message: SummaryMessage): string => {
    const record = stored[message.uuid];
    if (record !== undefined && record.sourceChars === message.text.length) {
      storedSummaries += 1;
      return record.summary;
    }
    return summarizeExtractive({ message, ...neighboursOf(messages, index.get(message.uuid) ?? 0) });
  };
  let budgetTokens = Math.min(policy.budgetTokens, Math.floor((maxChars - 120) / CHARS_PER_TOKEN));
  for (let attempt = 0; attempt < 4 && budgetTokens > 0; attempt += 1) {
    storedSummaries = 0;
    const assembly = assembleContext({
      messages,
      summaryOf,
      policy: { ...policy, budgetTokens, aggregateTokens: Math.min(policy.aggregateTokens, budgetTokens) },
    });
    const header = `## Conversation since the last compaction (assembled: ${assembly.recent.length} recent verbatim, ${assembly.summarized.length} summarised, ${assembly.aggregate.messages} older folded)`;
    const text = `${header}\n${assembly.text}`;
    // Token estimates are approximate: shrink the budget until the text fits the cap.
    if (text.length <= maxChars) {
      return {
        text,
        recent: assembly.recent.length,
        summarized: assembly.summarized.length,
        folded: assembly.aggregate.messages,
        storedSummaries,
      };
    }
    budgetTokens = Math.floor((budgetTokens * maxChars) / text.length) - 20;
  }
  return empty;
}

/**
 * The restore text with its conversation part assembled in the room the other sections leave (selective
 * restores without the conversation section are rendered as they are).
 */
export function renderRestoreWithConversation(
  state: ContextState,
  render: RenderOptions,
  stored: Readonly<Record<string, SummaryRecord>>,
  policy: AssemblyPolicy,
): { text: string; part: ConversationPart | null } {
  if (render.mode === "selective" && !(render.sections ?? []).includes("conversation")) {
    return { text: renderRestoreText(state, render), part: null };
  }
  const base = renderRestoreText(state, { ...render, conversationText: "" });
  // Room for the part and the separator, less what a footer naming cut sections may take.
  const room = render.maxChars - base.length - 2 - FOOTER_CHARS;
  const part = renderConversationPart(state, stored, policy, room);
  if (part.text === "") return { text: base, part };
  return { text: renderRestoreText(state, { ...render, conversationText: part.text }), part };
}

const FOOTER_CHARS = 120;
