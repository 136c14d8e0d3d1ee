// The conversation as summaries see it: main-chain messages in order, keyed by the uuid of their first line.
// An assistant API message arrives one content block per line (same `message.id`): those lines are one
// message. Tool results are their own messages (kind `tool-result`); the compact summary is kept as
// `compact-summary`. Meta entries, sidechains and harness notices are left out. Pure: entries in, data out.
import { estimateTokens } from "../estimate.ts";
import { contextTokensOf, isMainChain, isSkipped, type ParsedLine, type UserEntry } from "../transcript/entries.ts";
import { contentBlocks, entryText, truncateText } from "../transcript/text.ts";

export type MessageRole = "user" | "assistant";
export type MessageKind = "prompt" | "reply" | "tool-result" | "compact-summary";

export interface SummaryMessage {
  uuid: string;
  role: MessageRole;
  kind: MessageKind;
  text: string;
  /** Exact tokens when the transcript gives them (an assistant reply's final `output_tokens`), else null. */
  exactTokens: number | null;
  timestamp: string | null;
}

export interface CollectedConversation {
  messages: SummaryMessage[];
  /** The real context size of the last main-chain reply (input + cache creation + cache read), or null. */
  contextTokens: number | null;
}

/** A tool result keeps this much of its text (a 50 KB file read is not a message worth its length). */
export const TOOL_RESULT_MESSAGE_CHARS = 2_000;
/** Any one message keeps at most this much (pasted logs); a summary never needs more. */
export const MESSAGE_MAX_CHARS = 40_000;

const HARNESS_TEXT =
  /^\s*(<(task-notification|local-command-stdout|local-command-stderr|local-command-caveat|bash-notification|system-reminder|command-name|command-message|command-args)>|\[Request interrupted)/;

/** `/name args` from Claude Code's `<command-name>` / `<command-args>` record of a slash command, or null. */
export function slashCommandOf(text: string): string | null {
  const name = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1]?.trim();
  if (name === undefined || name === "") return null;
  const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim() ?? "";
  return args === "" ? name : `${name} ${args}`;
}

export interface MessageCollector {
  add(line: ParsedLine): void;
  build(): CollectedConversation;
}

export function createMessageCollector(): MessageCollector {
  const messages: SummaryMessage[] = [];
  const byMessageId = new Map<string, SummaryMessage>();
  let contextTokens: number | null = null;

  function onUser(entry: UserEntry): void {
    if (!isMainChain(entry) || entry.isMeta === true) return;
    const hasResults = contentBlocks(entry).some((block) => block.type === "tool_result");
    const text = truncateText(entryText(entry, TOOL_RESULT_MESSAGE_CHARS), MESSAGE_MAX_CHARS);
    if (text === "") return;
    let kind: MessageKind = "prompt";
    let said = text;
    if (entry.isCompactSummary === true) kind = "compact-summary";
    else if (hasResults) kind = "tool-result";
    else if (HARNESS_TEXT.test(text)) {
      // A slash command is the person's request (`/orchestrator create TODO app`); other harness text is not.
      const command = slashCommandOf(text);
      if (command === null) return;
      said = command;
    }
    messages.push({
      uuid: entry.uuid,
      role: "user",
      kind,
      text: said,
      exactTokens: null,
      timestamp: entry.timestamp ?? null,
    });
  }

  function add(line: ParsedLine): void {
    if (isSkipped(line)) return;
    if (line.type === "user") {
      onUser(line);
      return;
    }
    if (line.type !== "assistant" || !isMainChain(line)) return;
    const tokens = contextTokensOf(line.message.usage);
    if (tokens !== null) contextTokens = tokens;
    const output = line.message.usage?.output_tokens ?? null;
    const id = line.message.id;
    const text = entryText(line);
    const existing = id === undefined ? undefined : byMessageId.get(id);
    if (existing !== undefined) {
      // output_tokens is final only on the message's last line: the largest seen is the real count.
      if (output !== null && (existing.exactTokens === null || output > existing.exactTokens)) {
        existing.exactTokens = output;
      }
      if (text !== "")
        existing.text = truncateText(existing.text === "" ? text : `${existing.text}\n${text}`, MESSAGE_MAX_CHARS);
      return;
    }
    const message: SummaryMessage = {
      uuid: line.uuid,
      role: "assistant",
      kind: "reply",
      text,
      exactTokens: output,
      timestamp: line.timestamp ?? null,
    };
    messages.push(message);
    if (id !== undefined) byMessageId.set(id, message);
  }

  return {
    add,
    build: () => ({
      messages: messages
        .filter((message) => message.text !== "")
        .map((message) => ({ ...message, exactTokens: plausibleExactTokens(message) })),
      contextTokens,
    }),
  };
}

/**
 * `output_tokens` is streamed: only a message's last line holds the final count, and old versions often wrote
 * no final line (a 1,500-character reply "costing" 1 token). A count under half the text's estimate cannot be
 * the real one, so it is dropped and the estimate is used instead. Thinking makes real counts larger, never smaller.
 */
function plausibleExactTokens(message: SummaryMessage): number | null {
  if (message.exactTokens === null) return null;
  return message.exactTokens * 2 >= estimateTokens(message.text) ? message.exactTokens : null;
}

export function collectMessages(lines: Iterable<ParsedLine>): CollectedConversation {
  const collector = createMessageCollector();
  for (const line of lines) collector.add(line);
  return collector.build();
}

export interface MessageNeighbours {
  /** For a user message: the assistant replies around it; for a reply: the person's prompts around it. */
  before: SummaryMessage | null;
  after: SummaryMessage | null;
}

/**
 * The context a message is summarised in (Smart Context): a user message knows the assistant message before
 * and after it; an assistant message knows the person's prompts around it (tool results are not prompts).
 */
export function neighboursOf(messages: readonly SummaryMessage[], index: number): MessageNeighbours {
  const message = messages[index];
  if (message === undefined) return { before: null, after: null };
  const wanted = (other: SummaryMessage) =>
    message.role === "user" ? other.role === "assistant" : other.role === "user" && other.kind !== "tool-result";
  let before: SummaryMessage | null = null;
  for (let i = index - 1; i >= 0 && before === null; i -= 1) {
    const other = messages[i];
    if (other !== undefined && wanted(other)) before = other;
  }
  let after: SummaryMessage | null = null;
  for (let i = index + 1; i < messages.length && after === null; i += 1) {
    const other = messages[i];
    if (other !== undefined && wanted(other)) after = other;
  }
  return { before, after };
}
