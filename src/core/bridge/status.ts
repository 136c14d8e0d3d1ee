// What `/status` answers in the chat and what `ctx bridge status` prints: one schema for the listing (--json),
// texts for people. Pure.
import * as z from "zod/mini";
import { formatAge } from "./outbox.ts";
import type { BridgeSession } from "./session.ts";

export const BridgeSessionRowSchema = z.object({
  key: z.string(),
  username: z.string(),
  /** Null in a direct chat (a bot); a channel conversation always has it, its name only when Synology sent one. */
  channelId: z.nullable(z.string()),
  channelName: z.nullable(z.string()),
  claudeSessionId: z.nullable(z.string()),
  messages: z.int(),
  turns: z.int(),
  contextTokens: z.int(),
  lastActiveAt: z.string(),
  summarizedAt: z.nullable(z.string()),
  summaryChars: z.int(),
  fileBytes: z.int(),
});
export type BridgeSessionRow = z.infer<typeof BridgeSessionRowSchema>;

export const BridgeStatusReportSchema = z.object({
  sessionsDir: z.string(),
  sessions: z.array(BridgeSessionRowSchema),
  /** Accepted messages not answered yet (the journal), e.g. while the bridge is stopped. */
  pendingMessages: z.int(),
  /** Reply parts journaled and not delivered yet (the chat did not take them): they wait in the outbox. */
  pendingParts: z.int(),
  /** When the oldest of those was first due (ISO), and its age in seconds at the time of the report. */
  oldestPendingAt: z.nullable(z.string()),
  oldestPendingSeconds: z.nullable(z.int()),
  /** Session files that could not be read (damaged); named so a person can look. */
  unreadable: z.array(z.string()),
});
export type BridgeStatusReport = z.infer<typeof BridgeStatusReportSchema>;

export function sessionRowOf(session: BridgeSession, fileBytes: number): BridgeSessionRow {
  return {
    key: session.key,
    username: session.username,
    channelId: session.channelId,
    channelName: session.channelName,
    claudeSessionId: session.claudeSessionId,
    messages: session.messages,
    turns: session.turns,
    contextTokens: session.contextTokens,
    lastActiveAt: session.lastActiveAt,
    summarizedAt: session.summarizedAt,
    summaryChars: session.summary.length,
    fileBytes,
  };
}

/** Where a conversation takes place, for people: `#name`, `channel <id>` when Synology sent no name, or `direct`. */
export function conversationPlace(row: Pick<BridgeSessionRow, "channelId" | "channelName">): string {
  if (row.channelName !== null && row.channelName !== "") return `#${row.channelName}`;
  return row.channelId === null ? "direct" : `channel ${row.channelId}`;
}

/** The bridge's queue and outbox, as `/status` shows them. */
export interface QueueInfo {
  /** Messages of this conversation waiting behind the /status itself, and in the whole bridge. */
  queuedHere: number;
  queuedTotal: number;
  running: number;
  /** Reply parts waiting for the chat to take them, in the whole bridge, and the oldest one's age. */
  pendingParts: number;
  oldestPendingMs: number | null;
}

export interface ChatStatusInput extends QueueInfo {
  session: BridgeSession | null;
  windowTokens: number;
  softLimitTokens: number;
}

const n = (value: number): string => value.toLocaleString("en-US");

export function chatStatusText(input: ChatStatusInput): string {
  const { session } = input;
  const queue =
    `Queue: ${input.queuedHere} waiting here, ${input.queuedTotal} in the bridge, ${input.running} running.` +
    (input.pendingParts === 0
      ? ""
      : ` Outbox: ${input.pendingParts} reply part(s) waiting for the chat, the oldest for ${formatAge(input.oldestPendingMs ?? 0)}.`);
  if (session === null) return `No conversation yet: your next message starts one.\n${queue}`;
  const percent = Math.round((session.contextTokens / input.windowTokens) * 100);
  return [
    `Context: ${n(session.contextTokens)} of ${n(input.windowTokens)} tokens (${percent}%); ` +
      `summarised and continued in a new Claude session past ${n(input.softLimitTokens)}.`,
    `Messages: ${n(session.messages)} (${n(session.turns)} Claude turns, ${session.claudeSessionId === null ? "no Claude session yet" : `Claude session ${session.claudeSessionId.slice(0, 8)}`}).`,
    session.summarizedAt === null
      ? "Last summarised: never."
      : `Last summarised: ${session.summarizedAt.replace("T", " ").slice(0, 16)} UTC (${session.summaries} times).`,
    queue,
    "Commands: /new (fresh Claude session, summary kept), /forget (drop this conversation).",
  ].join("\n");
}
