// A session's conversation rebuilt from what the session index kept of it, for when its transcript is gone (Claude
// Code's cleanup, a moved folder): the chunks' text (core/search/chunker.ts: `User: …`, `Assistant: …`, `Tools: a; b`,
// `Summary: …` lines; in an index written before chunks stopped overlapping, each chunk after the first opens with the
// end of the one before) turned back into entries
// and fed to the same preview builder, so the preview is the one model whichever it came from. The index's text is
// already redacted and its tool calls are gists; a chunk's last line's uuid still marks the exchange `--at` names.
import { estimateTokens } from "../estimate.ts";
import type { AssistantEntry, ContentBlock, TranscriptEntry, UserEntry } from "../transcript/entries.ts";
import { createPreviewBuilder, type PreviewExchange } from "./preview.ts";

export interface ChunkText {
  text: string;
  /** The uuid of the chunk's last transcript line. */
  lastUuid: string | null;
}

const LABEL = /^(User|Assistant|Summary|Tools): ?(.*)$/;
/** `Edit src/a.ts`, `Bash: pnpm test`: a gist's tool name and what it was about (core/search/tool-gist.ts). */
const GIST = /^([A-Za-z][\w.-]*)(:? )(.*)$/;

/** The exchanges the chunks hold, in order, the one ending on `atUuid` marked; and whether any chunk ended there. */
export function exchangesFromChunks(
  chunks: readonly ChunkText[],
  atUuid: string | null = null,
): { exchanges: PreviewExchange[]; atFound: boolean | null } {
  const builder = createPreviewBuilder({ atUuid });
  const exchanges: PreviewExchange[] = [];
  messagesOf(chunks).forEach((message, position) => {
    const entries = toEntries(message.label, message.lines.join("\n"), position);
    const last = entries.at(-1);
    // The message a chunk ended in carries the chunk's last uuid: `--at` (a search's match) marks its exchange.
    if (last !== undefined && message.uuid !== null) last.uuid = message.uuid;
    for (const entry of entries) {
      const closed = builder.add(entry);
      if (closed !== null) exchanges.push(closed);
    }
  });
  const last = builder.finish();
  if (last !== null) exchanges.push(last);
  return { exchanges, atFound: builder.atFound() };
}

interface ChunkMessage {
  label: string;
  lines: string[];
  uuid: string | null;
}

/**
 * The labelled messages of all the chunks, each chunk's overlap left out. A line without a label continues the
 * message before it, in the chunk before when it opens a chunk; a prompt or summary split across chunks repeats its
 * label, so a `User:` or `Summary:` right after one is its continuation.
 */
function messagesOf(chunks: readonly ChunkText[]): ChunkMessage[] {
  const messages: ChunkMessage[] = [];
  let previous = "";
  for (const chunk of chunks) {
    for (const line of withoutOverlap(previous, chunk.text).split("\n")) {
      const labelled = LABEL.exec(line);
      const open = messages.at(-1);
      if (labelled === null) open?.lines.push(line);
      else if (
        open !== undefined &&
        open.label === labelled[1] &&
        open.label !== "Assistant" &&
        open.label !== "Tools"
      ) {
        open.lines.push(labelled[2] as string);
      } else messages.push({ label: labelled[1] as string, lines: [labelled[2] as string], uuid: null });
    }
    previous = chunk.text;
    const open = messages.at(-1);
    if (open !== undefined && chunk.lastUuid !== null) open.uuid = chunk.lastUuid;
  }
  return messages;
}

/**
 * The chunk's text without what it carried over from the end of the one before, in an index written while chunks
 * overlapped (the overlap opened on a line and was at least LEGACY_OVERLAP_TOKENS long): a chunk written since, whose
 * first lines merely repeat the last of the chunk before ("User: go on"), keeps them.
 */
export function withoutOverlap(previous: string, text: string): string {
  if (previous === "") return text;
  let cut = 0;
  for (let at = text.indexOf("\n"); at >= 0 && at <= previous.length; at = text.indexOf("\n", at + 1)) {
    const head = text.slice(0, at);
    if (previous.endsWith(head) && estimateTokens(head) >= LEGACY_OVERLAP_TOKENS) cut = at + 1;
  }
  return text.slice(cut);
}

/** The shortest overlap the chunker carried while it did (it left out a shorter one). */
const LEGACY_OVERLAP_TOKENS = 20;

function toEntries(label: string, text: string, position: number): TranscriptEntry[] {
  const body = text.trim();
  if (label === "User") return body === "" ? [] : [userEntry(body, false)];
  if (label === "Summary") return [userEntry(body, true)];
  const id = `message-${position}`;
  if (label === "Assistant") return body === "" ? [] : [assistantEntry(id, [{ type: "text", text: body }])];
  // `Tools: Edit src/a.ts; Bash: pnpm test`: each gist back into the call it was made from.
  const uses = body
    .split("; ")
    .filter((gist) => gist.trim() !== "")
    .map((gist): ContentBlock => ({ type: "tool_use", ...toolCallOf(gist.trim()) }));
  return uses.length === 0 ? [] : [assistantEntry(id, uses)];
}

function toolCallOf(gist: string): { name: string; input: Record<string, string> | null } {
  const parts = GIST.exec(gist);
  if (parts === null) return { name: gist, input: null };
  const [, name, separator, argument] = parts as unknown as [string, string, string, string];
  if (separator === ": ") return { name, input: { command: argument } };
  return { name, input: { file_path: argument } };
}

function userEntry(text: string, compactSummary: boolean): UserEntry {
  return {
    type: "user",
    uuid: "",
    message: { role: "user", content: text },
    ...(compactSummary ? { isCompactSummary: true } : {}),
  };
}

function assistantEntry(id: string, content: ContentBlock[]): AssistantEntry {
  return { type: "assistant", uuid: "", message: { id, role: "assistant", content } };
}
