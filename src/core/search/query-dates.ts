// Dates a person names in a search ("the migration we did on 3 June 2026", "what broke in March 2026", "in June",
// "2026-06-03"): each becomes a period of the person's local calendar (a day, a month, a year; a month without a
// year means that month in any year). A session active during a named period is better evidence than an equally
// worded one from another time (search-sessions.ts and ranking.ts weigh it as `search.weights.namedDate`; docs/search.md). Relative
// ages ("last week") are query-time.ts's. Pure: local time comes from the Date the runtime gives.

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const SHORT_MONTHS = MONTHS.map((month) => month.slice(0, 3));
/** A month's name or abbreviation, one group (monthIndex reads it). */
export const MONTH = `(${MONTHS.join("|")}|sept|${SHORT_MONTHS.filter((m) => m !== "may").join("|")})\\.?`;
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "((?:19|20)\\d{2})";

/** A period of the local calendar; a month without a year (`year` null) recurs every year. */
export interface NamedPeriod {
  kind: "day" | "month" | "year";
  year: number | null;
  /** 0..11; null for a year. */
  month: number | null;
  /** 1..31; null unless a day. */
  day: number | null;
}

const PATTERNS: ReadonlyArray<{ re: RegExp; read: (m: RegExpExecArray) => NamedPeriod | null }> = [
  // 2026-06-03
  { re: /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/g, read: (m) => day(Number(m[1]), Number(m[2]) - 1, Number(m[3])) },
  // 3 June 2026, 3rd of June, 2026
  {
    re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, "gi"),
    read: (m) => day(Number(m[3]), monthIndex(m[2]), Number(m[1])),
  },
  // June 3, 2026
  {
    re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, "gi"),
    read: (m) => day(Number(m[3]), monthIndex(m[1]), Number(m[2])),
  },
  // June 2026
  {
    re: new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, "gi"),
    read: (m) => ({ kind: "month", year: Number(m[2]), month: monthIndex(m[1]), day: null }),
  },
  // in June, during March (a bare month name: only after a preposition, so "may" and "march" as words stay words)
  {
    re: new RegExp(`\\b(?:in|during|early|late|mid|of)\\s+${MONTH}(?![\\w-])`, "gi"),
    read: (m) => ({ kind: "month", year: null, month: monthIndex(m[1]), day: null }),
  },
  // in 2026
  {
    re: /\b(?:in|during|of)\s+((?:19|20)\d{2})\b/gi,
    read: (m) => ({ kind: "year", year: Number(m[1]), month: null, day: null }),
  },
];

export function monthIndex(name: string | undefined): number {
  const lower = (name ?? "").toLowerCase().replace(".", "");
  const full = MONTHS.indexOf(lower);
  return full >= 0 ? full : SHORT_MONTHS.indexOf(lower.slice(0, 3));
}

function day(year: number, month: number, date: number): NamedPeriod | null {
  if (month < 0 || month > 11 || date < 1 || date > 31) return null;
  const probe = new Date(year, month, date);
  if (probe.getMonth() !== month) return null;
  return { kind: "day", year, month, day: date };
}

/** The periods a query names, most precise first; text already claimed by a more precise date is not read again. */
export function parseQueryDates(query: string): NamedPeriod[] {
  return findQueryDates(query).map((found) => found.period);
}

/** A named date with where it stands in the query (query-time.ts reads "since 3 June" and "before March" from it). */
export interface FoundDate {
  period: NamedPeriod;
  /** The date's text: query.slice(start, end). */
  start: number;
  end: number;
}

/** parseQueryDates with each period's place in the query, most precise first. */
export function findQueryDates(query: string): FoundDate[] {
  const found: FoundDate[] = [];
  const claimed: Array<[number, number]> = [];
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(query); m !== null; m = re.exec(query)) {
      const start = m.index;
      const end = start + m[0].length;
      if (claimed.some(([a, b]) => start < b && end > a)) continue;
      // Claimed even when it is no real date ("31 February 2023"): its month alone is not what was meant.
      claimed.push([start, end]);
      const period = read(m);
      if (period !== null && !(period.month !== null && period.month < 0)) found.push({ period, start, end });
    }
  }
  return found;
}

/** Whether a session active from `from` to `to` (epoch ms) was active during the period (local calendar). */
export function activeDuring(period: NamedPeriod, from: number, to: number): boolean {
  if (period.year !== null) {
    const [start, end] = bounds(period, period.year);
    return from < end && to >= start;
  }
  // A month in any year: each year the session spans.
  const first = new Date(Math.min(from, to)).getFullYear();
  const last = new Date(Math.max(from, to)).getFullYear();
  for (let year = first; year <= last; year++) {
    const [start, end] = bounds(period, year);
    if (from < end && to >= start) return true;
  }
  return false;
}

/** The period's [start, end) in epoch ms for `year` (its own year when it names one). */
export function periodBounds(period: NamedPeriod, year: number): [number, number] {
  return bounds(period, year);
}

function bounds(period: NamedPeriod, year: number): [number, number] {
  if (period.kind === "day") {
    const start = new Date(year, period.month ?? 0, period.day ?? 1).getTime();
    return [start, new Date(year, period.month ?? 0, (period.day ?? 1) + 1).getTime()];
  }
  if (period.kind === "month") {
    return [new Date(year, period.month ?? 0, 1).getTime(), new Date(year, (period.month ?? 0) + 1, 1).getTime()];
  }
  return [new Date(year, 0, 1).getTime(), new Date(year + 1, 0, 1).getTime()];
}

/** Whether the session was active during any of the periods. */
export function matchesNamedDate(periods: readonly NamedPeriod[], from: number, to: number): boolean {
  return periods.some((period) => activeDuring(period, from, to));
}
