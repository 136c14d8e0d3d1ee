// When to take a rolling checkpoint (pure): every `intervalMessages` transcript messages, counted from the
// bytes the transcript grew by since the last tick (user and assistant lines), so the hot path never
// parses or re-reads the transcript. One count per session, so sessions working in one project at once
// each reach their interval.

import { checkCheckpointMark, checkSingleSessionMark } from "./checkpoint-mark-schema.compiled.ts";
import type { CheckpointMark, SessionCount } from "./checkpoint-mark-schema.ts";

export type { CheckpointMark, SessionCount } from "./checkpoint-mark-schema.ts";

/** Sessions the mark remembers; the least recently ticked beyond this are dropped. */
export const MAX_MARKED_SESSIONS = 8;

/** The mark from the file's JSON, either format (unknown fields dropped); null (count afresh) for anything else.
 *  Checked without zod (this runs after every tool call): by the checkers compiled from ./checkpoint-mark-schema.ts. */
export function parseCheckpointMark(value: unknown): CheckpointMark | null {
  const current = checkCheckpointMark(value);
  if (current.ok) return current.value;
  const single = checkSingleSessionMark(value);
  if (!single.ok) return null;
  const { sessionId, offset, messages } = single.value;
  const count: SessionCount = { offset, messages, updatedAt: new Date(0).toISOString() };
  return { sessions: { [sessionId]: count } };
}

const MESSAGE_LINE = /"type":"(user|assistant)"/g;

export function countMessageLines(text: string): number {
  return text.match(MESSAGE_LINE)?.length ?? 0;
}

/** Whether transcript text holds a tool call (an assistant `tool_use` block), as Claude Code writes it. */
export function holdsToolCall(text: string): boolean {
  return text.includes('"type":"tool_use"');
}

export interface TickPlan {
  mark: CheckpointMark | null;
  sessionId: string;
  /** This session's count with the new offset, before adding what is read. */
  count: SessionCount;
  /** Bytes of the transcript to read and count: [from, to). Empty when there is nothing new. */
  read: { from: number; to: number };
}

export interface TickDecision {
  /** The mark to write back. */
  next: CheckpointMark;
  checkpoint: boolean;
}

/** First half of a tick: what to read. A session new to the mark, or whose transcript shrank (was replaced), starts afresh. */
export function planTick(
  mark: CheckpointMark | null,
  sessionId: string,
  size: number,
  maxReadBytes: number,
  now: Date,
): TickPlan {
  const updatedAt = now.toISOString();
  // Own keys only: a session id such as "constructor" must not find Object.prototype's.
  const previous = mark !== null && Object.hasOwn(mark.sessions, sessionId) ? mark.sessions[sessionId] : undefined;
  if (previous === undefined || size < previous.offset) {
    return { mark, sessionId, count: { offset: size, messages: 0, updatedAt }, read: { from: size, to: size } };
  }
  const from = Math.max(previous.offset, size - maxReadBytes);
  return { mark, sessionId, count: { ...previous, offset: size, updatedAt }, read: { from, to: size } };
}

/** Second half: add what was counted; a checkpoint is due once the interval is reached. */
export function finishTick(plan: TickPlan, counted: number, intervalMessages: number): TickDecision {
  const messages = plan.count.messages + counted;
  const checkpoint = messages >= intervalMessages;
  const count = { ...plan.count, messages: checkpoint ? 0 : messages };
  return { next: withSessionCount(plan.mark, plan.sessionId, count), checkpoint };
}

/** The mark with `sessionId`'s count replaced, keeping it and the most recently ticked others. */
function withSessionCount(mark: CheckpointMark | null, sessionId: string, count: SessionCount): CheckpointMark {
  const others = Object.entries(mark?.sessions ?? {})
    .filter(([id]) => id !== sessionId)
    .sort(([, a], [, b]) => timeOf(b.updatedAt) - timeOf(a.updatedAt))
    .slice(0, MAX_MARKED_SESSIONS - 1);
  return { sessions: Object.fromEntries([[sessionId, count], ...others]) };
}

function timeOf(iso: string): number {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? 0 : time;
}
