// When to take a rolling checkpoint (pure): every `intervalMessages` transcript messages, counted from the
// bytes the transcript grew by since the last tick (user and assistant lines), so the hot path never
// parses or re-reads the transcript.
import * as z from "zod/mini";

export const CheckpointMarkSchema = z.object({
  sessionId: z.string(),
  /** Transcript size when last counted. */
  offset: z.int(),
  /** Messages counted since the last checkpoint. */
  messages: z.int(),
});
export type CheckpointMark = z.infer<typeof CheckpointMarkSchema>;

const MESSAGE_LINE = /"type":"(user|assistant)"/g;

export function countMessageLines(text: string): number {
  return text.match(MESSAGE_LINE)?.length ?? 0;
}

export interface TickDecision {
  next: CheckpointMark;
  checkpoint: boolean;
  /** Bytes of the transcript to read and count: [from, to). Empty when there is nothing new. */
  read: { from: number; to: number };
}

/** First half of a tick: what to read. A new session or a replaced (shrunk) transcript starts counting afresh. */
export function planTick(
  mark: CheckpointMark | null,
  sessionId: string,
  size: number,
  maxReadBytes: number,
): TickDecision {
  if (mark === null || mark.sessionId !== sessionId || size < mark.offset) {
    return { next: { sessionId, offset: size, messages: 0 }, checkpoint: false, read: { from: size, to: size } };
  }
  const from = Math.max(mark.offset, size - maxReadBytes);
  return { next: { ...mark, offset: size }, checkpoint: false, read: { from, to: size } };
}

/** Second half: add what was counted; a checkpoint is due once the interval is reached. */
export function finishTick(planned: TickDecision, counted: number, intervalMessages: number): TickDecision {
  const messages = planned.next.messages + counted;
  if (messages >= intervalMessages) return { ...planned, next: { ...planned.next, messages: 0 }, checkpoint: true };
  return { ...planned, next: { ...planned.next, messages } };
}
