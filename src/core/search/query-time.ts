// Relative time a person writes in a search ("last week", "yesterday", "two days ago", "this morning", "over the
// weekend", "since Monday", "before 3 June 2026"): each becomes a window of the local calendar that filters the
// sessions searched, and its words leave the words searched (docs/search.md "Time words"). A named date alone
// ("in March", "3 June 2026") stays query-dates.ts's boost. Pure: the caller passes `now`; local time is the runtime's
// time zone (the process's TZ). Weeks start on Monday (ISO 8601).
import { findQueryDates, MONTH, monthIndex, type NamedPeriod, periodBounds } from "./query-dates.ts";

/** Sessions active in [from, to) (epoch ms; null = open), and the words that said so, as written. */
export interface QueryPeriod {
  from: number | null;
  to: number | null;
  words: string[];
}

export interface QueryTime {
  /** The window the time words set (all of them at once: their intersection); null when the query names none. */
  period: QueryPeriod | null;
  /** The query without its time words, whitespace folded. */
  text: string;
}

type Window = [number | null, number | null];
type Read = (m: RegExpExecArray, now: number) => Window | null;

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  "a couple of": 2,
  "a few": 3,
};
const NUMBER = `(\\d{1,3}|a\\s+couple\\s+of|a\\s+few|${Object.keys(NUMBER_WORDS)
  .filter((word) => !word.includes(" "))
  .join("|")})`;
const UNIT = "(day|week|month|year)";
const WEEKDAY = `(${WEEKDAYS.join("|")})`;
const MODIFIER = "(since|before|after|until|till)";
// A time word is a word of its own: not part of a name or a path ("isToday", "today.ts", "last-week").
const OPEN = "(?<![\\w./\\\\-])";
const CLOSE = "(?![\\w/\\\\-]|\\.\\w)";

function pattern(source: string): RegExp {
  return new RegExp(`${OPEN}(?:${source})${CLOSE}`, "giu");
}

/** Local midnight `days` days after `now`'s (calendar arithmetic: a DST day is 23 or 25 hours). */
function dayStart(now: number, days = 0, hour = 0): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, hour).getTime();
}

function weekStart(now: number, weeks = 0): number {
  const sinceMonday = (new Date(now).getDay() + 6) % 7;
  return dayStart(now, 7 * weeks - sinceMonday);
}

function monthStart(now: number, months = 0, day = 1): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth() + months, day).getTime();
}

function yearStart(now: number, years = 0): number {
  return new Date(new Date(now).getFullYear() + years, 0, 1).getTime();
}

function count(text: string | undefined): number {
  const word = (text ?? "").toLowerCase().replace(/\s+/g, " ");
  return NUMBER_WORDS[word] ?? Number(word);
}

/** The unit's period `n` units before the present one ("2 weeks ago": the week before last). */
function unitAgo(unit: string, n: number, now: number): Window {
  if (unit === "day") return [dayStart(now, -n), dayStart(now, 1 - n)];
  if (unit === "week") return [weekStart(now, -n), weekStart(now, 1 - n)];
  if (unit === "month") return [monthStart(now, -n), monthStart(now, 1 - n)];
  return [yearStart(now, -n), yearStart(now, 1 - n)];
}

/** From the same time of day `n` units back (rolling): "the past 3 days", "past week". */
function rollingFrom(unit: string, n: number, now: number): Window {
  if (unit === "day") return [dayStart(now, -n), null];
  if (unit === "week") return [dayStart(now, -7 * n), null];
  const d = new Date(now);
  if (unit === "month") return [new Date(d.getFullYear(), d.getMonth() - n, d.getDate()).getTime(), null];
  return [new Date(d.getFullYear() - n, d.getMonth(), d.getDate()).getTime(), null];
}

/** The most recent `weekday` (0 = Sunday) on or before today; `strictly`: before today. */
function lastWeekday(weekday: number, now: number, strictly: boolean): Window {
  let back = (new Date(now).getDay() - weekday + 7) % 7;
  if (back === 0 && strictly) back = 7;
  return [dayStart(now, -back), dayStart(now, 1 - back)];
}

/** The weekend in progress or the last one; `previous`: the one before the weekend in progress. */
function weekend(now: number, previous: boolean): Window {
  const sinceSaturday = (new Date(now).getDay() + 1) % 7;
  const back = sinceSaturday + (previous && sinceSaturday <= 1 ? 7 : 0);
  return [dayStart(now, -back), dayStart(now, 2 - back)];
}

const PART_OF_DAY: Record<string, [number, number]> = {
  morning: [0, 12],
  afternoon: [12, 18],
  evening: [18, 24],
  night: [18, 24],
};

function partOfDay(now: number, days: number, part: string | undefined): Window {
  const [from, to] = part === undefined ? [0, 24] : (PART_OF_DAY[part.toLowerCase()] ?? [0, 24]);
  return [dayStart(now, days, from), dayStart(now, days, to)];
}

/**
 * A query says when in a few phrases; past this many the rest stay words (a hostile megabyte of "today" is read in
 * linear time).
 */
const MAX_TIME_PHRASES = 8;
/** The words before a phrase that can bound it or anchor it ("the week before"): a bounded look back. */
const LOOK_BACK = 48;

/**
 * The relative periods, longest wording first (a span already read is not read again). Built on a query's first need:
 * constructing them is most of what loading this module costs, and a query without TIME_HINT needs none.
 */
let relative: ReadonlyArray<{ re: RegExp; read: Read; boundOnly?: true }> | null = null;
const relativePatterns = (): ReadonlyArray<{ re: RegExp; read: Read; boundOnly?: true }> =>
  (relative ??= [
    { re: pattern("the\\s+day\\s+before\\s+yesterday"), read: (_, now) => partOfDay(now, -2, undefined) },
    {
      re: pattern("yesterday(?:\\s+(morning|afternoon|evening|night))?|last\\s+(night)"),
      read: (m, now) => partOfDay(now, -1, m[1] ?? m[2]),
    },
    {
      re: pattern("(?:earlier\\s+)?today|this\\s+(morning|afternoon|evening)|(tonight)"),
      read: (m, now) => partOfDay(now, 0, m[1] ?? (m[2] === undefined ? undefined : "night")),
    },
    {
      re: pattern(`(?:(?:in|over|during)\\s+)?(?:the\\s+)?(?:last|past)\\s+${NUMBER}\\s+${UNIT}s`),
      read: (m, now) => rollingFrom(m[2]?.toLowerCase() ?? "day", count(m[1]), now),
    },
    {
      re: pattern(`${NUMBER}\\s+${UNIT}s?\\s+ago`),
      read: (m, now) => unitAgo(m[2]?.toLowerCase() ?? "", count(m[1]), now),
    },
    {
      re: pattern("(?:(?:over|during|on|at)\\s+)?(?:the|this|(last|past))\\s+weekend"),
      read: (m, now) => weekend(now, m[1] !== undefined),
    },
    {
      re: pattern(`(?:(?:in|over|during)\\s+)?(?:the\\s+)?(this\\s+past|past)\\s+${UNIT}`),
      read: (m, now) => rollingFrom(m[2]?.toLowerCase() ?? "day", 1, now),
    },
    {
      re: pattern(`(?:(?:in|during)\\s+)?(this|last|previous)\\s+${UNIT}`),
      read: (m, now) => unitAgo(m[2]?.toLowerCase() ?? "", m[1]?.toLowerCase() === "this" ? 0 : 1, now),
    },
    {
      re: pattern(`(last|on|this\\s+past)\\s+${WEEKDAY}`),
      read: (m, now) => lastWeekday(WEEKDAYS.indexOf(m[2]?.toLowerCase() ?? ""), now, m[1]?.toLowerCase() === "last"),
    },
    // A bare weekday or month only after a bound ("since Monday", "before March"): alone it may be a word of the topic
    // ("may", "march").
    {
      re: pattern(`(?<=${MODIFIER}\\s+)${WEEKDAY}`),
      read: (m, now) => lastWeekday(WEEKDAYS.indexOf(m[2]?.toLowerCase() ?? ""), now, false),
      boundOnly: true,
    },
    {
      re: pattern(`(?<=${MODIFIER}\\s+)${MONTH}(?!,?\\s+\\d)`),
      read: (m, now) => namedWindow({ kind: "month", year: null, month: monthIndex(m[2]), day: null }, now),
      boundOnly: true,
    },
  ]);

/** "the week before 3 June": a period before "before" or "after" makes it part of the topic, not a bound. */
const ANCHORED =
  /(?:day|days|week|weeks|weekend|month|months|year|years|night|morning|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+$/iu;
let boundRe: RegExp | null = null;
const boundPattern = (): RegExp => (boundRe ??= new RegExp(`${OPEN}${MODIFIER}\\s+$`, "iu"));

interface Found {
  start: number;
  end: number;
  window: Window;
}

/**
 * A word every time phrase above holds (a unit, a part of the day, "ago", a bound word; a weekday ends in "day"), with
 * the patterns' own flags, so Unicode case folding agrees. A query without one is left as it is before any pattern
 * runs: a cold `ctx search` then compiles none of them (bench/run.ts cli).
 */
export const TIME_HINT = /day|night|morning|afternoon|evening|ago|week|month|year|since|before|after|until|till/iu;

/** The query's time words and what is left to search. */
export function parseQueryTime(query: string, now: number): QueryTime {
  if (!TIME_HINT.test(query)) return { period: null, text: query };
  const found: Found[] = [];
  const claimed = (start: number, end: number) => found.some((f) => start < f.end && end > f.start);
  const dates = findQueryDates(query);
  for (const { re, read, boundOnly } of relativePatterns()) {
    re.lastIndex = 0;
    for (let m = re.exec(query); m !== null; m = re.exec(query)) {
      const end = m.index + m[0].length;
      if (found.length >= MAX_TIME_PHRASES) break;
      if (claimed(m.index, end) || anchoredToDate(query, end, dates)) continue;
      const window = read(m, now);
      if (window === null) continue;
      const plain = { start: m.index, end, window };
      const bound = bounded(query, plain);
      if (!(boundOnly === true && bound === plain)) found.push(bound);
    }
  }
  // A named date is a bound only after since/before/after/until; alone it stays a boost (query-dates.ts).
  for (const date of dates) {
    if (found.length >= MAX_TIME_PHRASES) break;
    if (claimed(date.start, date.end)) continue;
    const named = { start: date.start, end: date.end, window: namedWindow(date.period, now) };
    const read = bounded(query, named);
    if (read !== named) found.push(read);
  }
  if (found.length === 0) return { period: null, text: query };
  found.sort((a, b) => a.start - b.start);
  let from: number | null = null;
  let to: number | null = null;
  for (const { window } of found) {
    if (window[0] !== null) from = from === null ? window[0] : Math.max(from, window[0]);
    if (window[1] !== null) to = to === null ? window[1] : Math.min(to, window[1]);
  }
  const words = found.map((f) => query.slice(f.start, f.end).replace(/\s+/g, " "));
  let text = "";
  let at = 0;
  for (const f of found) {
    text += `${query.slice(at, f.start)} `;
    at = f.end;
  }
  text += query.slice(at);
  return { period: { from, to, words }, text: text.replace(/\s+/g, " ").trim() };
}

/**
 * "last weekend before April 10, 2023": a relative period right before "before" or "after" and a named date counts
 * from that date, not from now (a story's anchor, as "the week before August 3" is): it stays words, and the named
 * date its boost.
 */
function anchoredToDate(query: string, end: number, dates: readonly { start: number }[]): boolean {
  const link = /^\s*,?\s*(?:before|after)\s+/iu.exec(query.slice(end, end + LOOK_BACK));
  return link !== null && dates.some((date) => date.start === end + link[0].length);
}

/** The span widened over a bound word before it ("since", "before", …), its window turned into that bound. */
function bounded(query: string, found: Found): Found {
  const lookFrom = Math.max(0, found.start - LOOK_BACK);
  const before = query.slice(lookFrom, found.start);
  const bound = boundPattern().exec(before);
  const word = bound?.[1]?.toLowerCase();
  if (bound === null || word === undefined) return found;
  if ((word === "before" || word === "after") && ANCHORED.test(before.slice(0, bound.index))) return found;
  const [from, to] = found.window;
  const window: Window =
    word === "since" ? [from, null] : word === "before" ? [null, from] : word === "after" ? [to, null] : [null, to];
  return { start: lookFrom + bound.index, end: found.end, window };
}

/** A named date's window; a month without a year is its latest occurrence that has begun. */
function namedWindow(period: NamedPeriod, now: number): Window {
  if (period.year !== null) return periodBounds(period, period.year);
  const year = new Date(now).getFullYear();
  const [start, end] = periodBounds(period, year);
  return start <= now ? [start, end] : periodBounds(period, year - 1);
}
