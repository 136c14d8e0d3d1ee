// One chat conversation of the bridge (a Synology user in a channel, or in a direct chat): the Claude session it
// runs in, real token usage, the rolling summary and a capped recent history. Pure: the store persists it, the
// service decides when to summarise. The history is capped (count and characters per message) and what falls out
// of it is folded into the summary at once (the rolling policy's "21+ folded"), so a session file stays small
// however long the conversation runs.
import * as z from "zod/mini";
import { foldSummaries } from "../summaries/fold.ts";
import { cleanCommandText } from "../text/command-text.ts";
import { truncateText } from "../transcript/text.ts";

export const BRIDGE_SESSION_VERSION = 1;
/** Messages kept verbatim-ish in the file: the rolling policy needs the last 20 (5 verbatim + 15 summarised). */
export const HISTORY_MAX_MESSAGES = 30;
/** One stored message keeps at most this much (a 1 MiB paste is Claude's business, not the file's). */
export const HISTORY_MAX_CHARS = 2_000;
/** The rolling summary never grows past this (about 6,000 tokens). */
export const SUMMARY_MAX_CHARS = 24_000;

export const HistoryEntrySchema = z.object({
  role: z.enum(["user", "assistant"]),
  text: z.string(),
  at: z.string(),
  /** The whole message's length before it was cut for storage. */
  chars: z.int(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const UsageTotalsSchema = z.object({
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheCreationTokens: z.int(),
  cacheReadTokens: z.int(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export const BridgeSessionSchema = z.object({
  version: z.literal(BRIDGE_SESSION_VERSION),
  key: z.string(),
  userId: z.string(),
  username: z.string(),
  channelId: z.nullable(z.string()),
  channelName: z.nullable(z.string()),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** The Claude Code session the next turn resumes; null before the first turn and after a reset. */
  claudeSessionId: z.nullable(z.string()),
  /** When the current Claude session started (its first turn). */
  claudeSessionStartedAt: z.nullable(z.string()),
  /**
   * The appended system prompt the current Claude session was started with (the summary then), sent again on
   * each of its turns (`--resume` does not keep it); null for a session started without a summary.
   */
  seed: z.nullable(z.string()),
  /** The journal id of the last message answered, so a replay after a crash can tell it ran. */
  lastMessageId: z.nullable(z.string()),
  /** True when Claude could not answer the last message: `/new` then starts without the summary. */
  lastTurnFailed: z.optional(z.boolean()),
  messages: z.int(),
  turns: z.int(),
  /** The real context size of the last turn: input + cache creation + cache read of its usage. */
  contextTokens: z.int(),
  /** Everything Claude reported over the session's life. */
  usage: UsageTotalsSchema,
  summary: z.string(),
  summarizedAt: z.nullable(z.string()),
  summaries: z.int(),
  history: z.array(HistoryEntrySchema),
});
export type BridgeSession = z.infer<typeof BridgeSessionSchema>;

export interface SessionIdentity {
  key: string;
  userId: string;
  username: string;
  channelId: string | null;
  channelName: string | null;
}

export function newBridgeSession(identity: SessionIdentity, now: Date): BridgeSession {
  const at = now.toISOString();
  return {
    version: BRIDGE_SESSION_VERSION,
    ...identity,
    createdAt: at,
    lastActiveAt: at,
    claudeSessionId: null,
    claudeSessionStartedAt: null,
    seed: null,
    lastMessageId: null,
    messages: 0,
    turns: 0,
    contextTokens: 0,
    usage: { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 },
    summary: "",
    summarizedAt: null,
    summaries: 0,
    history: [],
  };
}

/** A history entry, cleaned (cleanCommandText): the history becomes the summary, and the summary an argument. */
export function historyEntry(role: HistoryEntry["role"], text: string, now: Date): HistoryEntry {
  return {
    role,
    text: truncateText(cleanCommandText(text), HISTORY_MAX_CHARS),
    at: now.toISOString(),
    chars: text.length,
  };
}

/**
 * Appends to the history; messages beyond the cap leave it oldest first and are folded into the summary
 * (extractive, deterministic), so the cap never loses a conversation's thread.
 */
export function appendHistory(session: BridgeSession, entries: readonly HistoryEntry[]): BridgeSession {
  const history = [...session.history, ...entries];
  if (history.length <= HISTORY_MAX_MESSAGES) return { ...session, history };
  const overflow = history.splice(0, history.length - HISTORY_MAX_MESSAGES);
  return { ...session, history, summary: foldIntoSummary(session.summary, overflow) };
}

/** The summary with `entries` folded onto its end, cut from the front (oldest first) to SUMMARY_MAX_CHARS. */
export function foldIntoSummary(summary: string, entries: readonly HistoryEntry[]): string {
  if (entries.length === 0) return summary;
  const folded = foldSummaries(
    entries.map((entry) => ({
      role: entry.role,
      kind: entry.role === "user" ? ("prompt" as const) : ("reply" as const),
      text: entry.text,
    })),
    Math.max(1_000, Math.floor(SUMMARY_MAX_CHARS / 4)),
  );
  return capSummary(summary === "" ? folded : `${summary}\n${folded}`);
}

/** Keeps the newest `max` characters of a summary, cut at a line start. */
export function capSummary(summary: string, max = SUMMARY_MAX_CHARS): string {
  if (summary.length <= max) return summary;
  const tail = summary.slice(summary.length - max + 2);
  const lineStart = tail.indexOf("\n");
  return `…\n${lineStart >= 0 && lineStart < 400 ? tail.slice(lineStart + 1) : tail}`;
}

/**
 * The session with its summary, seed and history cleaned for the command line (break 5): a file written before
 * the cleaning existed may hold a NUL that would make every later turn's spawn fail.
 */
export function cleanBridgeSession(session: BridgeSession): BridgeSession {
  return {
    ...session,
    summary: cleanCommandText(session.summary),
    seed: session.seed === null ? null : cleanCommandText(session.seed),
    history: session.history.map((entry) => ({ ...entry, text: cleanCommandText(entry.text) })),
  };
}

/** Starts a fresh Claude session for the conversation (idle, /new, after a summary), keeping the summary. */
export function resetClaudeSession(session: BridgeSession): BridgeSession {
  return { ...session, claudeSessionId: null, claudeSessionStartedAt: null, seed: null, contextTokens: 0 };
}
