// The one session preview (docs/preview.md): the index's header, then the conversation as exchanges (a prompt, the
// short replies, the tools used and the files written), the one a search matched marked. Built one transcript entry
// at a time, so a reader streams a transcript of any size through it and a renderer prints each exchange as it
// closes; every text kept is bounded and redacted. Rendered by ./preview-text.ts (ctx show, the MCP tools, the
// picker); the page will render the same model as HTML.
import { redactText } from "../redact/redact.ts";
import { promptText, userText } from "../search/messages.ts";
import { toolCallGist } from "../search/tool-gist.ts";
import type { AssistantEntry, TranscriptEntry, UserEntry } from "../transcript/entries.ts";
import { collapseWhitespace, contentBlocks, truncateText } from "../transcript/text.ts";
import type { PreviewExchange, PreviewSubagents } from "./preview-schema.ts";

export type {
  PreviewExchange,
  PreviewHeader,
  PreviewRead,
  PreviewSubagents,
  SessionAnnotation,
  SessionPreview,
} from "./preview-schema.ts";

/** What one exchange keeps: enough to recognise it, bounded whatever the transcript holds (a 1 MB pasted log). */
export const PREVIEW_LIMITS = {
  promptChars: 600,
  replyChars: 400,
  replies: 3,
  tools: 8,
  files: 12,
  subagentFiles: 30,
} as const;

/** Tools whose `file_path` (or `notebook_path`) they write: the files an exchange touched. */
const WRITING_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const COMPACTION_PROMPT = "(compaction summary)";

export interface PreviewBuilder {
  /** Adds one entry; returns the exchange it closed (a new prompt closes the one before), else null. */
  add(entry: TranscriptEntry): PreviewExchange | null;
  /** Closes the last exchange; null when there is none. */
  finish(): PreviewExchange | null;
  /** Whether a line carried `atUuid` (null when none was asked for). */
  atFound(): boolean | null;
}

interface OpenExchange {
  exchange: PreviewExchange;
  /** The reply being assembled (Claude Code writes one content block per line, all with the message's id). */
  replyId: string | null;
  replyOpen: boolean;
}

export function createPreviewBuilder(options: { atUuid?: string | null } = {}): PreviewBuilder {
  const atUuid = options.atUuid ?? null;
  let found = false;
  let count = 0;
  let open: OpenExchange | null = null;

  const start = (prompt: string, entry: UserEntry | null): PreviewExchange | null => {
    const closed = close();
    count += 1;
    open = {
      exchange: {
        number: count,
        // An entry rebuilt from the index's chunks (./preview-from-chunks.ts) has no uuid of its own: "".
        uuid: entry?.uuid || null,
        lastUuid: entry?.uuid || null,
        timestamp: isoTime(entry?.timestamp),
        prompt: bounded(prompt, PREVIEW_LIMITS.promptChars),
        replies: [],
        repliesOmitted: 0,
        tools: [],
        toolsOmitted: 0,
        files: [],
        matched: false,
      },
      replyId: null,
      replyOpen: false,
    };
    return closed;
  };

  const close = (): PreviewExchange | null => {
    if (open === null) return null;
    const { exchange } = open;
    open = null;
    // The reply was kept whole while it grew block by block: cut it now, redacted.
    exchange.replies = exchange.replies.map((reply) => bounded(reply, PREVIEW_LIMITS.replyChars));
    return exchange;
  };

  const current = (): OpenExchange => {
    if (open === null) start("", null);
    return open as unknown as OpenExchange;
  };

  const addAssistant = (entry: AssistantEntry) => {
    const state = current();
    const id = entry.message.id ?? null;
    if (id === null || id !== state.replyId) state.replyOpen = false;
    state.replyId = id;
    for (const block of contentBlocks(entry)) {
      if (block.type === "text" && block.text !== undefined && block.text.trim() !== "") {
        addReplyText(state, block.text.trim());
      } else if (block.type === "tool_use") {
        addTool(state.exchange, toolCallGist(block.name ?? "tool", block.input));
        const path = writtenPath(block.name, block.input);
        if (path !== null) addFile(state.exchange.files, path, PREVIEW_LIMITS.files);
      }
    }
  };

  return {
    add(entry) {
      const uuid = (entry as { uuid?: unknown }).uuid;
      if (atUuid !== null && uuid === atUuid) found = true;
      if (entry.type !== "user" && entry.type !== "assistant") return null;
      if (entry.isSidechain === true) return null;
      let closed: PreviewExchange | null = null;
      if (entry.type === "user" && entry.isMeta !== true) {
        if (entry.isCompactSummary === true) closed = start(COMPACTION_PROMPT, entry);
        else {
          const prompt = promptText(userText(entry));
          if (prompt !== "") closed = start(prompt, entry);
        }
      } else if (entry.type === "assistant" && entry.isApiErrorMessage !== true) {
        addAssistant(entry);
      }
      const state = open as OpenExchange | null;
      if (state !== null && typeof uuid === "string" && uuid !== "") {
        state.exchange.lastUuid = uuid;
        if (uuid === atUuid) state.exchange.matched = true;
      }
      return closed;
    },
    finish: close,
    atFound: () => (atUuid === null ? null : found),
  };
}

function addReplyText(state: OpenExchange, text: string): void {
  // Kept up to a little past the cut, so a reply of many blocks grows bounded too.
  const room = PREVIEW_LIMITS.replyChars * 2;
  const { exchange } = state;
  const last = exchange.replies.length - 1;
  if (state.replyOpen && last >= 0) {
    const joined = `${exchange.replies[last]}\n\n${text}`;
    exchange.replies[last] = joined.length > room ? joined.slice(0, room) : joined;
    return;
  }
  state.replyOpen = true;
  exchange.replies.push(text.length > room ? text.slice(0, room) : text);
  // The first reply (how Claude took the prompt) and the latest ones (where it got to) are kept; the middle goes.
  if (exchange.replies.length > PREVIEW_LIMITS.replies) {
    exchange.replies.splice(1, 1);
    exchange.repliesOmitted += 1;
  }
}

function addTool(exchange: PreviewExchange, rawGist: string): void {
  const gist = redactText(rawGist).text;
  const known = exchange.tools.find((tool) => tool.gist === gist);
  if (known !== undefined) known.count += 1;
  else if (exchange.tools.length < PREVIEW_LIMITS.tools) exchange.tools.push({ gist, count: 1 });
  else exchange.toolsOmitted += 1;
}

/** The file a writing tool call names; null for any other call. */
export function writtenPath(name: string | undefined, input: unknown): string | null {
  if (name === undefined || !WRITING_TOOLS.has(name) || input === null || typeof input !== "object") return null;
  const record = input as Record<string, unknown>;
  const path = record.file_path ?? record.notebook_path;
  return typeof path === "string" && path.trim() !== "" ? truncateText(redactText(path.trim()).text, 300) : null;
}

/** Adds a path once; past `max` the list stops growing (the caller counts what it left out when it needs to). */
export function addFile(files: string[], path: string, max: number): boolean {
  if (files.includes(path)) return true;
  if (files.length >= max) return false;
  files.push(path);
  return true;
}

/** The files a subagent's transcript wrote, added to what the preview says of the subagents. */
export function addSubagentEntry(subagents: PreviewSubagents, entry: TranscriptEntry): void {
  if (entry.type !== "assistant") return;
  for (const block of contentBlocks(entry)) {
    if (block.type !== "tool_use") continue;
    const path = writtenPath(block.name, block.input);
    if (path !== null && !addFile(subagents.files, path, PREVIEW_LIMITS.subagentFiles)) subagents.filesOmitted += 1;
  }
}

/** Redacted first, then cut: a secret cut in half would no longer be recognised. */
function bounded(text: string, max: number): string {
  return truncateText(redactText(text.length > max * 4 ? text.slice(0, max * 4) : text).text.trim(), max);
}

function isoTime(value: string | undefined): string | null {
  if (value === undefined) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** One line of a text for a list: whitespace folded, cut to `max` with `…`. */
export function oneLine(text: string, max: number): string {
  return truncateText(collapseWhitespace(text), max);
}
