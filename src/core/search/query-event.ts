// An event-relative bound in a query: "before the migration to pnpm", "after the auth rewrite", "since the outage".
// The event is a session found by its words, so it is uncertain: it ranks the sessions on the named side of that
// session higher (a boost, as a named date is) rather than filtering the others out, and its words stay searched
// (docs/search.md "Time words"). Pure.

export interface QueryEvent {
  /** Sessions before the event's session (started by its end) or after it (active from its start on). */
  side: "before" | "after";
  /** The event's words, as written ("the migration to pnpm"). */
  words: string;
}

// "before the X", up to punctuation, a joining word or six words; not "the week before the X" (a story's anchor).
const EVENT =
  /(?<![\w-])(before|after|since)\s+(the\s+(?!(?:day|week|weekend|month|year|morning|night)\b)[\p{L}\p{N}][\p{L}\p{N}_.#+/-]*(?:\s+(?!(?:and|or|but|when|where|while|because|so)\b)[\p{L}\p{N}][\p{L}\p{N}_.#+/-]*){0,5})/iu;
/** EVENT's bound words, with its flags: without one, EVENT never runs. */
const EVENT_HINT = /before|after|since/iu;
const ANCHORED = /(?:day|days|week|weeks|weekend|month|months|year|years|night|morning)\s+$/iu;

/** The query's event bound, or null. Run on the text the time words left (query-time.ts reads dates first). */
export function parseQueryEvent(text: string): QueryEvent | null {
  if (!EVENT_HINT.test(text)) return null;
  const m = EVENT.exec(text);
  if (m === null || ANCHORED.test(text.slice(Math.max(0, m.index - 24), m.index))) return null;
  const words = (m[2] ?? "").replace(/[.,;:!?]+$/u, "").trim();
  if (words.split(/\s+/u).length < 2) return null;
  return { side: m[1]?.toLowerCase() === "before" ? "before" : "after", words };
}

/** A session's activity, and the event session's: epoch ms. */
export interface ActiveSpan {
  createdAt: number;
  updatedAt: number;
}

/**
 * Whether a session is on the event's side. Inclusive: the event's own session counts on both sides (what was said
 * before a migration is often in the migration's session).
 */
export function onEventSide(side: QueryEvent["side"], session: ActiveSpan, event: ActiveSpan): boolean {
  return side === "before" ? session.createdAt <= event.updatedAt : session.updatedAt >= event.createdAt;
}
