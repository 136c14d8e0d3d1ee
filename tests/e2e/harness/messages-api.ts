// The Anthropic Messages API shapes the mock speaks: encoding a scripted reply as a streamed (server-sent
// events) or plain JSON message, and reading what Claude Code sent (tools, tool results, text) out of a request.
import { randomBytes } from "node:crypto";

export interface MockUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface MockToolUse {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a fresh `toolu_…` id. */
  id?: string;
}

/** One reply of the model: text and/or tool calls. With a tool call the stop reason is `tool_use`. */
export interface MockTurn {
  text?: string;
  toolUse?: MockToolUse | MockToolUse[];
  /** Merged over the defaults (100 input, 10 output, no cache). Later work drives the context guard with it. */
  usage?: Partial<MockUsage>;
  /** How long the model takes to answer (default: at once; a real one takes a second or more). */
  delayMs?: number;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface AssistantMessage {
  id: string;
  model: string;
  content: ContentBlock[];
  stopReason: "tool_use" | "end_turn";
  usage: MockUsage;
}

const DEFAULT_USAGE: MockUsage = {
  input_tokens: 100,
  output_tokens: 10,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

export function buildAssistantMessage(turn: MockTurn, model: string): AssistantMessage {
  const content: ContentBlock[] = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  const toolUses = turn.toolUse === undefined ? [] : Array.isArray(turn.toolUse) ? turn.toolUse : [turn.toolUse];
  for (const use of toolUses) {
    content.push({ type: "tool_use", id: use.id ?? randomId("toolu"), name: use.name, input: use.input });
  }
  if (content.length === 0) content.push({ type: "text", text: "" });
  return {
    id: randomId("msg"),
    model,
    content,
    stopReason: toolUses.length > 0 ? "tool_use" : "end_turn",
    usage: { ...DEFAULT_USAGE, ...turn.usage },
  };
}

/** The non-streaming JSON body of a Messages API reply. */
export function encodeMessageJson(message: AssistantMessage): string {
  return JSON.stringify({
    id: message.id,
    type: "message",
    role: "assistant",
    model: message.model,
    content: message.content,
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage: message.usage,
  });
}

function sseEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The streamed form, in the order the real API sends it. */
export function encodeMessageEvents(message: AssistantMessage): string {
  const { usage } = message;
  const events = [
    sseEvent("message_start", {
      message: {
        id: message.id,
        type: "message",
        role: "assistant",
        model: message.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(sseEvent("content_block_start", { index, content_block: { type: "text", text: "" } }));
      events.push(sseEvent("content_block_delta", { index, delta: { type: "text_delta", text: block.text } }));
    } else {
      const start = { type: "tool_use", id: block.id, name: block.name, input: {} };
      events.push(sseEvent("content_block_start", { index, content_block: start }));
      const partial_json = JSON.stringify(block.input);
      events.push(sseEvent("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }));
    }
    events.push(sseEvent("content_block_stop", { index }));
  });
  events.push(
    sseEvent("message_delta", {
      delta: { stop_reason: message.stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  events.push(sseEvent("message_stop", {}));
  return events.join("");
}

// ---- Reading requests ----

export interface MessagesRequestBody {
  model?: string;
  stream?: boolean;
  system?: string | { type: string; text?: string }[];
  tools?: { name: string }[];
  messages?: { role: string; content: string | Record<string, unknown>[] }[];
  max_tokens?: number;
}

export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The text parts of the result's content, joined by newlines. */
  text: string;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part !== "object" || part === null) return "";
      const record = part as Record<string, unknown>;
      if (typeof record.text === "string") return record.text;
      if (record.type === "tool_result") return textOf(record.content);
      return "";
    })
    .filter((text) => text !== "")
    .join("\n");
}

export function systemText(body: MessagesRequestBody): string {
  return textOf(body.system);
}

export function toolNames(body: MessagesRequestBody): string[] {
  return (body.tools ?? []).map((tool) => tool.name);
}

/** Every `tool_result` block in the request's user messages. */
export function toolResults(body: MessagesRequestBody): ToolResult[] {
  const results: ToolResult[] = [];
  for (const message of body.messages ?? []) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      results.push({
        toolUseId: String(block.tool_use_id),
        isError: block.is_error === true,
        text: textOf(block.content),
      });
    }
  }
  return results;
}

/** All text the request carries in its messages (prompts, system reminders, tool results): for `toContain`. */
export function messagesText(body: MessagesRequestBody): string {
  return (body.messages ?? []).map((message) => textOf(message.content)).join("\n");
}
