// Packs a session's index messages into searchable chunks (docs/fork-detect.md "What the session index reads").
// Messages are grouped into exchanges (a user prompt with the replies, tool gists and inline subagent messages up to
// the next prompt); exchanges are packed whole into chunks of about TARGET tokens (at most MAX). An exchange bigger
// than MAX is split between paragraphs (its prompt kept with the start of its reply), never inside a fenced code block
// (a code block bigger than MAX stays whole, alone).
// Chunks do not overlap: each holds only its own messages (docs/fork-detect.md; indexes written before issue 36's
// sixth stop carried ~150 tokens of the chunk before into each chunk, which readers still allow for).
//
// Chunk text, one line per message (a message's own newlines kept):
//   User: <prompt>
//   Assistant: <reply text>
//   Tools: Edit src/a.ts; Bash: pnpm test
//   Summary: <compaction summary or old `summary` record>
// Pure and deterministic: the same messages always give the same chunks.

import { estimateTokens } from "../estimate.ts";
import { splitBlocks, splitLongProse } from "./chunk-blocks.ts";
import { detectCode, detectLanguages, FENCE_LINE } from "./languages.ts";
import { detectMemoryType } from "./memory-markers.ts";
import type { IndexMessage } from "./messages.ts";
import type { IndexedChunk } from "./model.ts";

export const CHUNK_TARGET_TOKENS = 750;
export const CHUNK_MIN_TOKENS = 500;
export const CHUNK_MAX_TOKENS = 1000;
const BARE_LABEL = /^(?:User|Assistant|Summary):$/;

export interface BuildChunksOptions {
  /** The ordinal of `messages[0]` in its session (when chunking an increment). */
  firstOrdinal?: number;
  firstChunkIndex?: number;
}

/** A piece of chunk content: a whole exchange, or a paragraph or code block of an exchange bigger than MAX. */
interface Unit {
  text: string;
  first: number;
  last: number;
  /** Joins it to the unit before it in the same chunk. */
  separator: string;
}

interface Draft {
  /** The chunk's units, joined. */
  text: string;
  first: number;
  last: number;
}

export function buildChunks(
  sessionId: string,
  messages: IndexMessage[],
  options: BuildChunksOptions = {},
): IndexedChunk[] {
  const firstOrdinal = options.firstOrdinal ?? 0;
  const chunks: IndexedChunk[] = [];
  let draft: Draft | null = null;

  const flush = () => {
    if (draft === null) return;
    chunks.push(finishChunk(sessionId, (options.firstChunkIndex ?? 0) + chunks.length, draft));
    draft = null;
  };

  for (const unit of exchangeUnits(messages, firstOrdinal)) {
    const current: Draft | null = draft;
    if (current !== null) {
      const tokens = estimateTokens(current.text);
      const joined = tokens + estimateTokens(unit.separator + unit.text);
      if (joined > CHUNK_MAX_TOKENS || tokens >= CHUNK_TARGET_TOKENS) flush();
    }
    if (draft === null) {
      draft = { text: unit.text, first: unit.first, last: unit.last };
    } else {
      draft.text += unit.separator + unit.text;
      draft.last = unit.last;
    }
  }
  flush();
  return chunks;
}

function finishChunk(sessionId: string, chunkIndex: number, draft: Draft): IndexedChunk {
  const text = draft.text;
  return {
    sessionId,
    chunkIndex,
    firstMessage: draft.first,
    lastMessage: draft.last,
    text,
    tokenCount: estimateTokens(text),
    hasCode: detectCode(text),
    languages: detectLanguages(text),
    memoryType: detectMemoryType(withoutToolLines(text)),
  };
}

function withoutToolLines(text: string): string {
  return text
    .split("\n")
    .filter((line) => !line.startsWith("Tools: "))
    .join("\n");
}

/** One unit per exchange, or, for an exchange over MAX, one per paragraph/code block. */
function* exchangeUnits(messages: IndexMessage[], firstOrdinal: number): Generator<Unit> {
  let exchange: { ordinal: number; text: string }[] = [];
  const emit = function* (): Generator<Unit> {
    if (exchange.length === 0) return;
    const first = exchange[0]?.ordinal ?? firstOrdinal;
    const last = exchange[exchange.length - 1]?.ordinal ?? first;
    const text = exchange.map((part) => part.text).join("\n");
    if (estimateTokens(text) <= CHUNK_MAX_TOKENS) {
      yield { text, first, last, separator: "\n" };
    } else yield* splitExchange(exchange);
    exchange = [];
  };
  let openerIsMain = false;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index];
    if (message === undefined) continue;
    // A subagent's prompt inside a main-chain exchange (old transcripts write them inline) is part of the reply.
    if (message.role !== "assistant" && !(message.sidechain && openerIsMain)) {
      yield* emit();
      openerIsMain = !message.sidechain;
    }
    const text = renderMessage(message);
    if (text !== "") exchange.push({ ordinal: firstOrdinal + index, text });
  }
  yield* emit();
}

/**
 * An exchange over MAX: its paragraphs and code blocks (long prose cut further), each a unit of its own, except
 * that the prompt stays glued to the start of its reply (when both fit in MAX), so a user turn is never alone.
 */
function* splitExchange(exchange: { ordinal: number; text: string }[]): Generator<Unit> {
  const units: Unit[] = [];
  for (const part of exchange) {
    let atMessageStart = true;
    for (const block of splitBlocks(part.text)) {
      for (const { text, separator } of splitLongProse(block, CHUNK_TARGET_TOKENS)) {
        const label = units.at(-1);
        // A bare `User:` (a message that opens with code) stays on the code's first line.
        if (label !== undefined && !atMessageStart && BARE_LABEL.test(label.text)) label.text += separator + text;
        else
          units.push({ text, first: part.ordinal, last: part.ordinal, separator: atMessageStart ? "\n" : separator });
        atMessageStart = false;
      }
    }
  }
  const replyStart = units.findIndex((unit) => unit.first !== units[0]?.first);
  let head = units[0];
  let glued = 1;
  if (head !== undefined && replyStart > 0) {
    const gluedUnits = units.slice(0, replyStart + 1);
    const text = gluedUnits.map((unit, index) => (index === 0 ? unit.text : unit.separator + unit.text)).join("");
    const merged: Unit = {
      text,
      first: head.first,
      last: units[replyStart]?.last ?? head.last,
      separator: head.separator,
    };
    if (estimateTokens(merged.text) <= CHUNK_MAX_TOKENS) {
      head = merged;
      glued = replyStart + 1;
    }
  }
  if (head !== undefined) yield head;
  yield* units.slice(glued);
}

/** The labels renderMessage opens a message's lines with, and typedText reads back. */
const ROLE_LABELS: Record<IndexMessage["role"], string> = { user: "User", assistant: "Assistant", summary: "Summary" };
const TOOLS_LABEL = "Tools";

/** `User: …`, `Assistant: …` + `Tools: …`, `Summary: …`; an unclosed code fence is closed. */
export function renderMessage(message: IndexMessage): string {
  const lines: string[] = [];
  const text = closeOpenFence(message.text.trim());
  if (text !== "") {
    const label = ROLE_LABELS[message.role];
    // A fence must open its line, so a message that starts with code puts its label on a line of its own.
    lines.push(FENCE_LINE.test(text) ? `${label}:\n${text}` : `${label}: ${text}`);
  }
  if (message.tools.length > 0) lines.push(`${TOOLS_LABEL}: ${message.tools.join("; ")}`);
  return lines.join("\n");
}

/** A rendered message's first line: its label (renderMessage), then its text or, before a code fence, nothing. */
const MESSAGE_LABEL = new RegExp(`^(${[...Object.values(ROLE_LABELS), TOOLS_LABEL].join("|")}):`);

/**
 * What the person typed in a chunk: the text of its `User:` messages (renderMessage's labels), without the labels.
 * Lines before the chunk's first label (in an index written before chunks stopped overlapping, the text carried from
 * the chunk before) are left out: whose they are is not known. "" when the chunk holds no prompt.
 */
export function typedText(chunkText: string): string {
  const typed: string[] = [];
  let inPrompt = false;
  for (const line of chunkText.split("\n")) {
    const label = MESSAGE_LABEL.exec(line);
    if (label !== null) inPrompt = label[1] === ROLE_LABELS.user;
    if (inPrompt) typed.push(label === null ? line : line.slice(label[0].length));
  }
  return typed.join("\n").trim();
}

function closeOpenFence(text: string): string {
  let open = false;
  for (const line of text.split("\n")) if (FENCE_LINE.test(line)) open = !open;
  return open ? `${text}\n\`\`\`` : text;
}
