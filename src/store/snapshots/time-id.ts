// Ids for snapshot and checkpoint files: the creation time (UTC, to the millisecond) in a form that sorts
// as text and is safe in a file name, plus a random suffix so two processes never pick the same name.
import { randomHex } from "../../core/text/random-hex.ts";

/** e.g. `20261122T031100123Z-3f9a1c`. Also the guard against path tricks in ids that people type. */
export const TIME_ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

let lastGivenMs = Number.NEGATIVE_INFINITY;
let lastIssuedMs = Number.NEGATIVE_INFINITY;

/**
 * A new id for `now`. Ids issued by one process for the same or later times strictly increase (an id
 * in a millisecond already used takes the next one), so "newest" never depends on the random suffix.
 * A time earlier than the last one asked for (a clock set back, or a test) is used as given.
 */
export function newTimeId(now: Date): { id: string; createdAt: string } {
  const given = now.getTime();
  const ms = given > lastIssuedMs || given < lastGivenMs ? given : lastIssuedMs + 1;
  lastGivenMs = given;
  lastIssuedMs = ms;
  const createdAt = new Date(ms).toISOString();
  return { id: `${createdAt.replace(/[-:.]/g, "")}-${randomHex(3)}`, createdAt };
}

/** The creation time an id carries, as ISO 8601, or null when `id` is not a time id. */
export function timeOfId(id: string): string | null {
  if (!TIME_ID_PATTERN.test(id)) return null;
  const t = id.slice(0, 18);
  const iso = `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 11)}:${t.slice(11, 13)}:${t.slice(13, 15)}.${t.slice(15, 18)}Z`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}
