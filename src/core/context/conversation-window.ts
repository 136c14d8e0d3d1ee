// The conversation part of a context state while entries stream in: the messages since the last compaction
// boundary, held within the character budget (the oldest dropped and counted, a compact summary kept first), and
// an assistant reply's lines merged into one message. Used by ./extract.ts.
import type { AssistantEntry, UserEntry } from "../transcript/entries.ts";
import { entryText, truncateText } from "../transcript/text.ts";
import { CONTEXT_STATE_LIMITS, type ConversationMessage } from "./schema.ts";

export interface DraftMessage extends ConversationMessage {
  /** Assistant replies arrive one content block per line: the lines of one API message share this id. */
  messageId: string | null;
}

export class ConversationWindow {
  private messages: DraftMessage[] = [];
  private chars = 0;
  private byMessageId = new Map<string, DraftMessage>();
  private lastAssistantMessageId: string | null = null;
  /** Messages with text dropped to stay within the budget. */
  omitted = 0;

  /** Forgets everything: a compaction boundary starts the conversation again. */
  restart(): void {
    this.messages = [];
    this.chars = 0;
    this.omitted = 0;
    this.byMessageId = new Map();
    this.lastAssistantMessageId = null;
  }

  append(message: DraftMessage): void {
    this.messages.push(message);
    this.chars += message.text.length;
    if (message.messageId !== null) this.byMessageId.set(message.messageId, message);
    // Keep memory bounded while streaming; finish() trims to the exact budget.
    if (this.chars > 2 * CONTEXT_STATE_LIMITS.conversationChars) this.trim();
  }

  /**
   * An assistant line: a new message, or more of the message its id names (text appended, the largest
   * output_tokens kept: the count is final only on the message's last line). True when it starts a new
   * assistant message (a new id, or no id).
   */
  addReply(entry: AssistantEntry, outputTokens: number | null): boolean {
    const messageId = entry.message.id ?? null;
    const text = entryText(entry);
    const existing = messageId === null ? undefined : this.byMessageId.get(messageId);
    if (existing === undefined) {
      const counted = messageId === null || messageId !== this.lastAssistantMessageId;
      this.lastAssistantMessageId = messageId;
      this.append({
        ...draftMessage(entry, "reply", truncateText(text, CONTEXT_STATE_LIMITS.messageChars)),
        messageId,
        tokens: outputTokens,
      });
      return counted;
    }
    if (outputTokens !== null && (existing.tokens === null || outputTokens > existing.tokens)) {
      existing.tokens = outputTokens;
    }
    if (text === "") return false;
    const merged = truncateText(
      existing.text === "" ? text : `${existing.text}\n${text}`,
      CONTEXT_STATE_LIMITS.messageChars,
    );
    this.chars += merged.length - existing.text.length;
    existing.text = merged;
    return false;
  }

  /** The messages with text, trimmed to the budget (copies, without their message ids). */
  finish(): ConversationMessage[] {
    this.messages = this.messages.filter((message) => message.text !== "");
    this.chars = this.messages.reduce((sum, message) => sum + message.text.length, 0);
    if (this.chars > CONTEXT_STATE_LIMITS.conversationChars) this.trim();
    return this.messages.map(({ messageId: _id, ...message }) => ({ ...message }));
  }

  /** Drops the oldest messages (a compact summary first in line stays) until the rest fit the budget. */
  private trim(): void {
    const budget = CONTEXT_STATE_LIMITS.conversationChars;
    const pinned = this.messages[0]?.kind === "compact-summary" ? this.messages[0] : null;
    let used = pinned?.text.length ?? 0;
    let keepFrom = this.messages.length;
    while (keepFrom > (pinned === null ? 0 : 1)) {
      const candidate = this.messages[keepFrom - 1];
      if (candidate === undefined || used + candidate.text.length > budget) break;
      used += candidate.text.length;
      keepFrom -= 1;
    }
    const start = pinned === null ? 0 : 1;
    const dropped = this.messages.slice(start, keepFrom);
    if (dropped.length === 0) return;
    for (const message of dropped) if (message.messageId !== null) this.byMessageId.delete(message.messageId);
    this.omitted += dropped.filter((message) => message.text !== "").length;
    this.messages = [...(pinned === null ? [] : [pinned]), ...this.messages.slice(keepFrom)];
    this.chars = used;
  }
}

/** A message of `entry` as the conversation holds it. */
export function draftMessage(
  entry: UserEntry | AssistantEntry,
  kind: ConversationMessage["kind"],
  text: string,
): DraftMessage {
  return {
    uuid: entry.uuid,
    role: entry.type,
    kind,
    text,
    timestamp: entry.timestamp ?? null,
    tokens: null,
    messageId: null,
  };
}
