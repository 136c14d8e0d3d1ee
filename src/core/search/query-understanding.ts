// What a search query says beyond its topic: the time window its time words set (query-time.ts) and what it leaves
// out (query-negation.ts), read together, with the words left to search and the lines that show the person what was
// understood ("Searched sessions from 23–29 Nov 2026 (last week)."). A query with neither is searched as it is.
// Pure: the caller passes `now`; dates are written in the runtime's local time zone.
import { describeAnnotation } from "../library/annotation.ts";
import type { RecentSession } from "./fork-candidate-schema.ts";
import { isStopword } from "./fts-query.ts";
import { parseQueryEvent, type QueryEvent } from "./query-event.ts";
import { parseQueryNegation, type QueryNegation } from "./query-negation.ts";
import { parseQueryTime, type QueryPeriod } from "./query-time.ts";
import { tokenizeForSearch } from "./tokens.ts";

export type { QueryEvent, QueryPeriod };

/** The session an event bound named (the best strong match for its words), or null when none was found. */
export interface EventSession {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
}

export interface QueryUnderstanding {
  /** The words to search: the query without its time words and exclusions. */
  text: string;
  /** The query without its exclusions only: what a window that holds no session widens to (its time words searched). */
  textWithTime: string;
  period: QueryPeriod | null;
  /** What to leave out, as written. */
  excluded: string[];
  /** "before the migration to pnpm": ranks the sessions on that side of the event's session higher (query-event.ts). */
  event: QueryEvent | null;
  /**
   * Nothing left to search ("what did I do yesterday", "-docker"): the sessions the window and the exclusions
   * leave are listed, most recent first, instead of searched.
   */
  listing: boolean;
}

/**
 * Words that say "show me my sessions" rather than name a topic, once a time word is there: "what did I work on
 * yesterday" lists yesterday's sessions.
 */
let askingWords: ReadonlySet<string> | null = null;
const askingWordsOf = (): ReadonlySet<string> =>
  (askingWords ??= new Set(
    "work worked working session sessions happen happened going go done chat chats conversation conversations"
      .split(" ")
      .flatMap((word) => tokenizeForSearch(word).split(" ")),
  ));

/** The query read for time words and exclusions; null when it has neither (it is searched exactly as before). */
export function understandQuery(query: string, now: number): QueryUnderstanding | null {
  const negation: QueryNegation = parseQueryNegation(query);
  const time = parseQueryTime(negation.text, now);
  const event = parseQueryEvent(time.text);
  if (time.period === null && negation.excluded.length === 0 && event === null) return null;
  const tokens = tokenizeForSearch(time.text)
    .split(" ")
    .filter((token) => token !== "" && !isStopword(token));
  const asking = askingWordsOf();
  const listing = tokens.every((token) => time.period !== null && asking.has(token));
  return {
    text: time.text,
    textWithTime: negation.text,
    period: time.period,
    excluded: negation.excluded,
    event,
    listing,
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function isMidnight(d: Date): boolean {
  return d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;
}

function dayText(d: Date, withYear = true): string {
  return `${d.getDate()} ${MONTHS[d.getMonth()]}${withYear ? ` ${d.getFullYear()}` : ""}`;
}

function clockText(d: Date): string {
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** "from 23–29 Nov 2026", "on 1 Dec 2026", "since 30 Nov 2026", "before 3 Jun 2026", "on 2 Dec 2026, 00:00–12:00". */
export function describePeriod(period: Pick<QueryPeriod, "from" | "to">): string {
  const from = period.from === null ? null : new Date(period.from);
  const to = period.to === null ? null : new Date(period.to);
  if (from === null && to === null) return "of any date";
  if (to === null)
    return `since ${dayText(from as Date)}${isMidnight(from as Date) ? "" : ` ${clockText(from as Date)}`}`;
  if (from === null) return `before ${dayText(to)}${isMidnight(to) ? "" : ` ${clockText(to)}`}`;
  if (from.getTime() >= to.getTime()) return "of no date (the time words leave no time between them)";
  if (!isMidnight(from) || !isMidnight(to)) {
    const last = new Date(to.getTime() - 1);
    const sameDay = dayText(from) === dayText(last);
    return sameDay
      ? `on ${dayText(from)}, ${clockText(from)}–${clockText(to)}`
      : `from ${dayText(from)} ${clockText(from)} to ${dayText(to)} ${clockText(to)}`;
  }
  // Whole days: the last one is the day before `to` (calendar arithmetic, so a DST day still counts once).
  const last = new Date(to.getFullYear(), to.getMonth(), to.getDate() - 1);
  if (dayText(from) === dayText(last)) return `on ${dayText(from)}`;
  if (from.getFullYear() !== last.getFullYear()) return `from ${dayText(from)} – ${dayText(last)}`;
  if (from.getMonth() !== last.getMonth()) return `from ${dayText(from, false)} – ${dayText(last)}`;
  return `from ${from.getDate()}–${dayText(last)}`;
}

/**
 * Whether a query's time window was given up for every date: no (false), because it held no session at all
 * ("empty"), because none of its sessions matched the words ("unmatched"), or because they matched only weakly
 * while another date holds a strong match ("weak").
 */
export type Widened = false | "empty" | "unmatched" | "weak";

/** The lines that say what the query was read as: its window, what it left out, and whether the window was widened. */
export function understoodLines(
  understood: QueryUnderstanding,
  widened: Widened = false,
  eventSession: EventSession | null = null,
): string[] {
  const lines: string[] = [];
  const period = understood.period;
  if (period !== null) {
    const words = period.words.join(", ");
    lines.push(
      widened === "empty"
        ? `No session is ${describePeriod(period)} (${words}): searched sessions of any date.`
        : widened === "unmatched"
          ? `No session ${describePeriod(period)} (${words}) matches: searched sessions of any date.`
          : widened === "weak"
            ? `No session ${describePeriod(period)} (${words}) matches strongly: searched sessions of any date.`
            : `Searched sessions ${describePeriod(period)} (${words}).`,
    );
  }
  const event = understood.event;
  if (event !== null) {
    lines.push(
      eventSession === null
        ? `Found no session about "${event.words}": "${event.side} ${event.words}" did not change the ranking.`
        : `Ranked sessions ${event.side} "${event.words}" higher (the session "${eventSession.title}", ${dayText(new Date(eventSession.createdAt))}).`,
    );
  }
  if (understood.excluded.length > 0) {
    lines.push(`Left out sessions about ${understood.excluded.map((text) => `"${text}"`).join(", ")}.`);
  }
  return lines;
}

/** The answer to a query with nothing left to search: the sessions its window and exclusions leave, newest first. */
export function renderListing(understood: QueryUnderstanding, sessions: readonly RecentSession[]): string {
  const which = understood.period === null ? "" : ` ${describePeriod(understood.period)}`;
  if (sessions.length === 0) return `No session${which} is in the index (run \`ctx index\` if sessions are missing).`;
  return [
    `Sessions${which}, most recent first:`,
    ...sessions.flatMap((session, i) => {
      const yours = describeAnnotation(session);
      return [
        "",
        `${i + 1}. ${session.topic}`,
        `   ${session.relativeDate} · ${session.cwd ?? session.project}`,
        `   session ${session.sessionId}`,
        ...(yours === null ? [] : [`   yours: ${yours}`]),
        `   fork: ${session.forkCommand}`,
      ];
    }),
  ].join("\n");
}
