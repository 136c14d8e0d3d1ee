// Turns parsed transcript entries into the messages the session index stores (docs/fork-detect.md "What the session
// index reads"): user prompts, assistant text (one message per API reply, even when Claude Code wrote it one content
// block per line), tool calls as gists, and compaction summaries. Meta entries, progress, tool results (except a
// failure's gist), slash-command output and interruption notices are dropped. Every text is redacted before it leaves.
// A `summary` record is this session's text and title only when its leaf is a line read here (SummaryRecords: most
// title another session).
// Fed one entry at a time so a reader can stream a transcript of any size through it.

import { type RedactOptions, redactText } from "../redact/redact.ts";
import {
  type AssistantEntry,
  SummaryRecords,
  type TranscriptEntry,
  titleOf,
  type UserEntry,
} from "../transcript/entries.ts";
import { contentBlocks, truncateText } from "../transcript/text.ts";
import { commandOutputGist, toolCallGist, toolErrorGist } from "./tool-gist.ts";

export interface IndexMessage {
  uuid: string | null;
  /** Byte offset of the line the message starts on. */
  offset: number;
  role: "user" | "assistant" | "summary";
  /** Redacted. */
  text: string;
  timestamp: number | null;
  /** Gists of the tool calls (and failed results) of this reply: "Edit src/a.ts", "Bash: npm test". */
  tools: string[];
  /** A subagent's message (inline in old transcripts, or any message of a subagent file). */
  sidechain: boolean;
  /** The uuid of the message's last line (a reply written one content block per line ends on its last block). */
  endUuid?: string | null;
  /**
   * An assistant reply copied in from another session (its `requestSessionId` names another session: what
   * `--fork-session` copies). A session with no reply of its own adds nothing to what it copied (./duplicates.ts).
   */
  copied?: boolean;
}

export interface TranscriptMeta {
  sessionId: string | null;
  /** The first working folder seen (where the session started, so where `claude --resume` must run). */
  cwd: string | null;
  /** The last git branch seen. */
  gitBranch: string | null;
  /** The newest custom-title, else ai-title, else `summary` record (redacted). */
  title: string | null;
  /** The first main-chain user prompt, whitespace collapsed, at most 300 characters (redacted). */
  firstPrompt: string | null;
  firstTimestamp: number | null;
  lastTimestamp: number | null;
  /** Lineage (docs/search.md): the uuid of the first main-chain user or assistant line. */
  rootUuid: string | null;
  /**
   * The session a copied assistant line was first written in (`requestSessionId`, which Claude Code 2.1.330 sets on
   * the lines `--fork-session` copies): this session is a fork of that one.
   */
  originSession: string | null;
  /** A later prompt shares the first prompt's `promptId`: the first prompt was copied in by a fork. */
  copiedRoot: boolean;
}

/** A message's text is cut here: a pasted log of megabytes says nothing a search needs past its start. */
export const MAX_MESSAGE_CHARS = 64 * 1024;
const FIRST_PROMPT_CHARS = 300;

/** User text that Claude Code or a command wrote, not the person: command output, caveats, notices. */
const NOISE_PREFIXES = [
  "<local-command-stdout>",
  "<local-command-stderr>",
  "<local-command-caveat>",
  "<task-notification>",
  "<bash-stdout>",
  "<bash-stderr>",
  "[Request interrupted by user",
];

interface OpenReply {
  message: IndexMessage;
  id: string | null;
}

export interface IndexMessageBuilder {
  /** Adds one entry read from the line at byte `offset`. */
  add(entry: TranscriptEntry, offset: number): void;
  /**
   * Notes the line just before where this read began (read in an earlier one): a summary record naming it, written
   * right after it as Claude Code writes a session's own, is this session's.
   */
  noteEarlierLine(entry: TranscriptEntry): void;
  /** The messages (redacted) and the meta seen so far. */
  finish(): { messages: IndexMessage[]; meta: TranscriptMeta };
}

export function createIndexMessageBuilder(redaction: RedactOptions = {}): IndexMessageBuilder {
  const redact = (text: string): string => redactText(text, redaction).text;
  const messages: IndexMessage[] = [];
  const meta: TranscriptMeta = {
    sessionId: null,
    cwd: null,
    gitBranch: null,
    title: null,
    firstPrompt: null,
    firstTimestamp: null,
    lastTimestamp: null,
    rootUuid: null,
    originSession: null,
    copiedRoot: false,
  };
  let rootPromptId: string | null = null;
  /** Lineage clues from a main-chain line (the rules and their check on real Claude Code: docs/search.md). */
  const noteLineage = (entry: UserEntry | AssistantEntry, role: "user" | "assistant") => {
    const loose = entry as { uuid?: unknown; promptId?: unknown; requestSessionId?: unknown; sessionId?: unknown };
    const promptId = typeof loose.promptId === "string" ? loose.promptId : null;
    if (meta.rootUuid === null && typeof loose.uuid === "string") {
      meta.rootUuid = loose.uuid;
      if (role === "user") rootPromptId = promptId;
    } else if (role === "user" && promptId !== null && promptId === rootPromptId) {
      meta.copiedRoot = true;
    }
    const origin = loose.requestSessionId;
    if (meta.originSession === null && typeof origin === "string" && origin !== "" && origin !== loose.sessionId) {
      meta.originSession = origin;
    }
  };
  const titles = { custom: null as string | null, ai: null as string | null };
  const summaries = new SummaryRecords<IndexMessage>();
  // The reply being assembled on each chain (main, sidechain): later lines with its message.id join it.
  const open: { main: OpenReply | null; side: OpenReply | null } = { main: null, side: null };

  const noteEnvelope = (entry: TranscriptEntry): number | null => {
    if (entry.type !== "user" && entry.type !== "assistant" && entry.type !== "system") return null;
    summaries.noteLine(entry.uuid);
    if (meta.sessionId === null && entry.sessionId) meta.sessionId = entry.sessionId;
    if (meta.cwd === null && entry.cwd) meta.cwd = entry.cwd;
    if (entry.gitBranch) meta.gitBranch = entry.gitBranch;
    const timestamp = parseTimestamp(entry.timestamp);
    if (timestamp !== null) {
      if (meta.firstTimestamp === null || timestamp < meta.firstTimestamp) meta.firstTimestamp = timestamp;
      if (meta.lastTimestamp === null || timestamp > meta.lastTimestamp) meta.lastTimestamp = timestamp;
    }
    return timestamp;
  };

  const addUser = (entry: UserEntry, offset: number, timestamp: number | null) => {
    if (entry.isMeta === true) return;
    const chain = entry.isSidechain === true ? "side" : "main";
    const base = { uuid: entry.uuid, endUuid: entry.uuid, offset, timestamp, tools: [], sidechain: chain === "side" };
    if (chain === "main") noteLineage(entry, "user");
    if (entry.isCompactSummary === true) {
      messages.push({ ...base, role: "summary", text: userText(entry) });
      open[chain] = null;
      return;
    }
    for (const block of contentBlocks(entry)) {
      if (block.type !== "tool_result" || block.is_error !== true) continue;
      const gist = toolErrorGist(resultText(block.content));
      if (gist !== null) open[chain]?.message.tools.push(gist);
    }
    const said = userText(entry);
    // A command's output joins the command's line (the message just before it on this chain), as a tool's gist does.
    const output = commandOutputGist(said);
    if (output !== null) {
      const last = messages.at(-1);
      if (last?.role === "user" && last.sidechain === (chain === "side")) last.tools.push(output);
      return;
    }
    const text = promptText(said);
    if (text === "") return;
    messages.push({ ...base, role: "user", text });
    open[chain] = null;
    if (chain === "main" && meta.firstPrompt === null) meta.firstPrompt = text;
  };

  const addAssistant = (entry: AssistantEntry, offset: number, timestamp: number | null) => {
    if (entry.isApiErrorMessage === true || entry.message.model === "<synthetic>") return;
    const chain = entry.isSidechain === true ? "side" : "main";
    if (chain === "main") noteLineage(entry, "assistant");
    const id = entry.message.id ?? null;
    let reply = open[chain];
    if (reply === null || id === null || reply.id !== id) {
      const message: IndexMessage = {
        uuid: entry.uuid,
        offset,
        role: "assistant",
        text: "",
        timestamp,
        tools: [],
        sidechain: chain === "side",
      };
      const origin = (entry as { requestSessionId?: unknown }).requestSessionId;
      if (typeof origin === "string" && origin !== "" && origin !== entry.sessionId) message.copied = true;
      messages.push(message);
      reply = { message, id };
      open[chain] = reply;
    }
    reply.message.endUuid = entry.uuid;
    for (const block of contentBlocks(entry)) {
      if (block.type === "text" && block.text !== undefined && block.text.trim() !== "") {
        const text = block.text.trim();
        reply.message.text = reply.message.text === "" ? text : `${reply.message.text}\n\n${text}`;
      } else if (block.type === "tool_use") {
        reply.message.tools.push(toolCallGist(block.name ?? "tool", block.input));
      }
    }
  };

  return {
    add(entry, offset) {
      const timestamp = noteEnvelope(entry);
      if (entry.type === "user") addUser(entry, offset, timestamp);
      else if (entry.type === "assistant") addAssistant(entry, offset, timestamp);
      else if (entry.type === "summary") {
        const text = entry.summary.trim();
        if (text !== "") {
          const message: IndexMessage = {
            uuid: null,
            offset,
            role: "summary",
            text,
            timestamp: null,
            tools: [],
            sidechain: false,
          };
          messages.push(message);
          summaries.noteSummary(entry, message);
        }
      } else if (entry.type === "custom-title") titles.custom = titleOf(entry) ?? titles.custom;
      else if (entry.type === "ai-title") titles.ai = titleOf(entry) ?? titles.ai;
    },
    noteEarlierLine(entry) {
      if (entry.type === "user" || entry.type === "assistant" || entry.type === "system")
        summaries.noteLine(entry.uuid);
    },
    finish() {
      const others = new Set(summaries.others());
      const kept = messages
        .filter((message) => (message.text !== "" || message.tools.length > 0) && !others.has(message))
        .map((message) => ({
          ...message,
          text: redact(truncateText(message.text, MAX_MESSAGE_CHARS)),
          tools: message.tools.map(redact),
        }));
      const title = titles.custom ?? titles.ai ?? summaries.own().at(-1)?.text ?? null;
      const firstPrompt = meta.firstPrompt === null ? null : oneLine(meta.firstPrompt, FIRST_PROMPT_CHARS);
      return {
        messages: kept,
        meta: {
          ...meta,
          title: title === null ? null : redact(title),
          firstPrompt: firstPrompt === null ? null : redact(firstPrompt),
        },
      };
    },
  };
}

function oneLine(text: string, max: number): string {
  return truncateText(text.replace(/\s+/g, " ").trim(), max);
}

function parseTimestamp(value: string | undefined): number | null {
  if (value === undefined) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/** The text blocks of a user entry (tool results and images left out). */
export function userText(entry: UserEntry): string {
  const content = entry.message.content;
  if (typeof content === "string") return content.trim();
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === "text" && block.text !== undefined && block.text.trim() !== "") parts.push(block.text.trim());
  }
  return parts.join("\n\n");
}

/**
 * What the person asked: "" for noise; a slash command becomes `/name args` (its expansion is a meta entry).
 */
export function promptText(text: string): string {
  if (text === "" || NOISE_PREFIXES.some((prefix) => text.startsWith(prefix))) return "";
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (command !== null) {
    const name = (command[1] ?? "").trim();
    const args = (/<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1] ?? "").trim();
    return args === "" ? name : `${name} ${args}`;
  }
  return text;
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const item of content) {
    const block = item as { type?: unknown; text?: unknown } | null;
    if (block !== null && typeof block === "object" && block.type === "text" && typeof block.text === "string") {
      parts.push(block.text);
    }
  }
  return parts.join("\n");
}
