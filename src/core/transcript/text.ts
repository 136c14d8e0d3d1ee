// Text out of transcript entries: what a user or assistant entry says, with tool calls reduced to a gist
// (`Edit(src/app.ts)`) and tool results trimmed, as the index, the context state and summaries want it.
import type { AssistantEntry, ContentBlock, UserEntry } from "./entries.ts";

export interface ToolUse {
  id: string | null;
  name: string;
  input: unknown;
}

export interface ToolResult {
  toolUseId: string | null;
  isError: boolean;
  /** The result's text in full (string content, or its text blocks joined). */
  text: string;
}

/** The characters a tool result keeps inside an entry's text. */
export const TOOL_RESULT_TEXT_CHARS = 300;
const GIST_ARGUMENT_CHARS = 120;
/** The input fields that say what a tool call was about, most telling first. */
export const GIST_FIELDS = [
  "file_path",
  "notebook_path",
  "command",
  "pattern",
  "path",
  "url",
  "query",
  "skill",
  "subject",
  "description",
  "taskId",
] as const;

export function contentBlocks(entry: UserEntry | AssistantEntry): ContentBlock[] {
  const content = entry.message.content;
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

export function toolUsesOf(entry: UserEntry | AssistantEntry): ToolUse[] {
  if (entry.type !== "assistant") return [];
  const uses: ToolUse[] = [];
  for (const block of contentBlocks(entry)) {
    if (block.type === "tool_use" && block.name !== undefined) {
      uses.push({ id: block.id ?? null, name: block.name, input: block.input });
    }
  }
  return uses;
}

export function toolResultsOf(entry: UserEntry | AssistantEntry): ToolResult[] {
  if (entry.type !== "user" || typeof entry.message.content === "string") return [];
  const results: ToolResult[] = [];
  for (const block of entry.message.content) {
    if (block.type === "tool_result") {
      results.push({
        toolUseId: block.tool_use_id ?? null,
        isError: block.is_error === true,
        text: resultContentText(block.content),
      });
    }
  }
  return results;
}

/** `ToolName(argument)` from the input's file path, command or pattern; just the name when it has none. */
export function toolUseGist(name: string, input: unknown): string {
  if (input !== null && typeof input === "object") {
    const record = input as Record<string, unknown>;
    for (const field of GIST_FIELDS) {
      const value = typeof record[field] === "number" ? String(record[field]) : record[field];
      if (typeof value === "string" && value.trim() !== "") {
        return `${name}(${truncateText(collapseWhitespace(value), GIST_ARGUMENT_CHARS)})`;
      }
    }
  }
  return name;
}

/**
 * What an entry says: text blocks, tool calls as gists, tool results trimmed to `resultChars`, images as
 * `[image]`. Thinking blocks are left out: they are the model's scratch work, not the conversation.
 */
export function entryText(entry: UserEntry | AssistantEntry, resultChars = TOOL_RESULT_TEXT_CHARS): string {
  const parts: string[] = [];
  for (const block of contentBlocks(entry)) {
    const text = blockText(block, resultChars);
    if (text !== "") parts.push(text);
  }
  return parts.join("\n");
}

function blockText(block: ContentBlock, resultChars: number): string {
  switch (block.type) {
    case "text":
      return (block.text ?? "").trim();
    case "tool_use":
      return toolUseGist(block.name ?? "tool", block.input);
    case "tool_result": {
      const text = truncateText(resultContentText(block.content).trim(), resultChars);
      return block.is_error === true ? `[error] ${text}` : text;
    }
    case "image":
      return "[image]";
    default:
      return "";
  }
}

function resultContentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const item of content) {
    if (item === null || typeof item !== "object") continue;
    const block = item as { type?: unknown; text?: unknown };
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "image") parts.push("[image]");
  }
  return parts.join("\n");
}

/** Cuts text to at most `max` characters, ending in `…` when cut; never splits a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
