// The reply outbox's rules, pure: when a reply's delivery deadline falls (`bridge.deliveryHours` after it was
// first due), what the person is told about parts given up or refused, and what `/status` and `ctx bridge status`
// count as waiting. (The wait between tries is payload.ts's retryDelayMs.)
import type { OpenWork } from "./journal.ts";

/** When a reply first due at `dueAt` is given up (epoch ms). */
export function deliveryDeadline(dueAt: string, deliveryHours: number): number {
  return Date.parse(dueAt) + deliveryHours * 3_600_000;
}

function formatHours(hours: number): string {
  return Number.isInteger(hours) ? `${hours} h` : `${Math.round(hours * 60)} min`;
}

/** Posted to the person once the chat takes posts again, for the parts given up at the deadline. */
export function gaveUpNoticeText(parts: number, deliveryHours: number, messageAt: string): string {
  return (
    `⚠️ ${parts} reply part(s) could not be delivered within ${formatHours(deliveryHours)} and were given up ` +
    `(the answer to your message of ${messageAt.replace("T", " ").slice(0, 16)} UTC). Ask again if you still need it.`
  );
}

/** Posted in a refused part's place: if the chat takes this, the refusal was about the part, which is skipped. */
export function refusedPartText(part: number, parts: number, detail: string): string {
  // The detail is the chat's own answer: kept short, it is posted back to the chat.
  const short = detail.length > 200 ? `${detail.slice(0, 200)}…` : detail;
  return `⚠️ The chat refused part ${part + 1}/${parts} of this reply (${short}); it was skipped.`;
}

export interface PendingDelivery {
  /** Reply parts journaled and not delivered yet (notices of given-up parts not counted). */
  parts: number;
  /** When the oldest of them was first due (ISO), or null. */
  oldestDueAt: string | null;
}

export function pendingDelivery(open: Iterable<OpenWork>): PendingDelivery {
  let parts = 0;
  let oldest: number | null = null;
  let oldestDueAt: string | null = null;
  for (const work of open) {
    if (work.parts === null || work.gaveUp !== null || work.posted >= work.parts.length) continue;
    parts += work.parts.length - work.posted;
    const due = work.dueAt === null ? Number.NaN : Date.parse(work.dueAt);
    if (work.dueAt !== null && (oldest === null || due < oldest)) {
      oldest = due;
      oldestDueAt = work.dueAt;
    }
  }
  return { parts, oldestDueAt };
}

/** "3 min", "2 h 5 min", "40 s": an age for people. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}
