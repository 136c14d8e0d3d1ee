// Time words read with a fixed clock in pinned time zones: calendar arithmetic across DST changes, month and year
// boundaries, the words removed from the words searched, and named dates left alone (they stay a boost).

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseQueryTime, TIME_HINT } from "./query-time.ts";

const savedTz = process.env.TZ;

function inZone(tz: string, run: () => void): void {
  process.env.TZ = tz;
  try {
    run();
  } finally {
    process.env.TZ = "Europe/Berlin";
  }
}

/** Local wall-clock time in the current TZ, as "2026-11-23 00:00". */
function local(ms: number | null): string | null {
  if (ms === null) return null;
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function read(query: string, now: number) {
  const { period, text } = parseQueryTime(query, now);
  return { text, from: local(period?.from ?? null), to: local(period?.to ?? null), words: period?.words ?? [] };
}

beforeAll(() => {
  process.env.TZ = "Europe/Berlin";
});
afterAll(() => {
  process.env.TZ = savedTz;
});

describe("parseQueryTime", () => {
  // Wednesday 2 December 2026, 10:30 in Berlin.
  const now = () => new Date(2026, 11, 2, 10, 30).getTime();

  it("reads relative periods as windows of the local calendar and removes their words", () => {
    expect(read("last week docker", now())).toEqual({
      text: "docker",
      from: "2026-11-23 00:00",
      to: "2026-11-30 00:00",
      words: ["last week"],
    });
    expect(read("what did I do yesterday", now())).toMatchObject({
      text: "what did I do",
      from: "2026-12-01 00:00",
      to: "2026-12-02 00:00",
    });
    expect(read("this morning", now())).toMatchObject({ from: "2026-12-02 00:00", to: "2026-12-02 12:00" });
    expect(read("the auth bug earlier today", now())).toMatchObject({ text: "the auth bug", from: "2026-12-02 00:00" });
    expect(read("two days ago", now())).toMatchObject({ from: "2026-11-30 00:00", to: "2026-12-01 00:00" });
    expect(read("3 weeks ago", now())).toMatchObject({ from: "2026-11-09 00:00", to: "2026-11-16 00:00" });
    expect(read("a month ago", now())).toMatchObject({ from: "2026-11-01 00:00", to: "2026-12-01 00:00" });
    expect(read("this month", now())).toMatchObject({ from: "2026-12-01 00:00", to: "2027-01-01 00:00" });
    expect(read("last year", now())).toMatchObject({ from: "2025-01-01 00:00", to: "2026-01-01 00:00" });
    expect(read("in the past 3 days", now())).toMatchObject({ text: "", from: "2026-11-29 00:00", to: null });
    expect(read("over the weekend", now())).toMatchObject({ from: "2026-11-28 00:00", to: "2026-11-30 00:00" });
    expect(read("last Friday", now())).toMatchObject({ from: "2026-11-27 00:00", to: "2026-11-28 00:00" });
    expect(read("last Wednesday", now())).toMatchObject({ from: "2026-11-25 00:00" });
    expect(read("last night", now())).toMatchObject({ from: "2026-12-01 18:00", to: "2026-12-02 00:00" });
  });

  it("reads bounds: since, before, after, until a period, a weekday, a month or a named date", () => {
    expect(read("since Monday auth", now())).toMatchObject({ text: "auth", from: "2026-11-30 00:00", to: null });
    expect(read("since Wednesday", now())).toMatchObject({ from: "2026-12-02 00:00" });
    expect(read("redis before 3 June 2026", now())).toMatchObject({
      text: "redis",
      from: null,
      to: "2026-06-03 00:00",
    });
    expect(read("after May", now())).toMatchObject({ from: "2026-06-01 00:00", to: null });
    // A month without a year is its latest start: December has begun, so "since December" is this one.
    expect(read("since December", now())).toMatchObject({ from: "2026-12-01 00:00" });
    expect(read("since March 2026 x", now())).toMatchObject({ text: "x", from: "2026-03-01 00:00" });
    expect(read("until last week", now())).toMatchObject({ from: null, to: "2026-11-30 00:00" });
    // Two time phrases: their intersection.
    expect(read("since last week until Tuesday", now())).toMatchObject({
      from: "2026-11-23 00:00",
      to: "2026-12-02 00:00",
    });
    // A bare weekday that is no bound ("the day before Tuesday": a story's anchor) is no time word.
    expect(read("the week before Tuesday", now())).toMatchObject({ text: "the week before Tuesday", words: [] });
  });

  it("leaves named dates, a story's anchors and look-alike words alone", () => {
    for (const query of [
      "in March",
      "the migration on 3 June 2026",
      "the week before August 3, 2023",
      "the Sunday before October 25, 2022",
      "may the force",
      "march of the penguins",
      "today.ts isToday last-week this_week",
      "How long ago was Caroline's 18th birthday?",
      "fix the weekday parser",
    ]) {
      expect(parseQueryTime(query, now()), query).toEqual({ period: null, text: query });
    }
    // A relative period anchored to a named date counts from that date, not from now: words, and the date's boost.
    for (const query of [
      "last weekend before April 10, 2023",
      "What did Audrey do with her pups over the weekend before 4th October, 2023?",
      "the day after 3 June 2026",
    ]) {
      expect(parseQueryTime(query, now()), query).toEqual({ period: null, text: query });
    }
    // Anchored to something that is no date, it still reads from now.
    expect(read("last weekend before the release", now())).toMatchObject({
      text: "before the release",
      words: ["last weekend"],
    });
  });

  it("counts whole local days across DST changes", () => {
    // Berlin leaves DST on Sunday 25 October 2026: that day has 25 hours.
    const afterFallBack = new Date(2026, 9, 26, 9, 0).getTime();
    expect(read("yesterday", afterFallBack)).toMatchObject({ from: "2026-10-25 00:00", to: "2026-10-26 00:00" });
    expect(read("last week", afterFallBack)).toMatchObject({ from: "2026-10-19 00:00", to: "2026-10-26 00:00" });
    const { period } = parseQueryTime("yesterday", afterFallBack);
    expect((period?.to ?? 0) - (period?.from ?? 0)).toBe(25 * 3_600_000);
    // And enters DST on Sunday 29 March 2026 (23 hours).
    const afterSpring = new Date(2026, 2, 30, 0, 30).getTime();
    const spring = parseQueryTime("yesterday", afterSpring).period;
    expect((spring?.to ?? 0) - (spring?.from ?? 0)).toBe(23 * 3_600_000);
    inZone("America/New_York", () => {
      // New York leaves DST on 1 November 2026; "over the weekend" on Monday 2 November spans it.
      const monday = new Date(2026, 10, 2, 8, 0).getTime();
      expect(read("over the weekend", monday)).toMatchObject({ from: "2026-10-31 00:00", to: "2026-11-02 00:00" });
    });
  });

  it("crosses month and year boundaries", () => {
    const newYear = new Date(2027, 0, 1, 0, 5).getTime();
    expect(read("yesterday", newYear)).toMatchObject({ from: "2026-12-31 00:00", to: "2027-01-01 00:00" });
    expect(read("last month", newYear)).toMatchObject({ from: "2026-12-01 00:00", to: "2027-01-01 00:00" });
    expect(read("last year", newYear)).toMatchObject({ from: "2026-01-01 00:00", to: "2027-01-01 00:00" });
    // Friday 1 January 2027: the week began on Monday 28 December 2026.
    expect(read("this week", newYear)).toMatchObject({ from: "2026-12-28 00:00", to: "2027-01-04 00:00" });
    // 31 March minus a month is 3 March by Date's arithmetic; "a month ago" is February, the calendar month.
    const endOfMarch = new Date(2027, 2, 31, 12, 0).getTime();
    expect(read("a month ago", endOfMarch)).toMatchObject({ from: "2027-02-01 00:00", to: "2027-03-01 00:00" });
    expect(read("since March", new Date(2027, 1, 10).getTime())).toMatchObject({ from: "2026-03-01 00:00" });
    expect(read("on 29 February 2028", newYear)).toEqual({
      text: "on 29 February 2028",
      from: null,
      to: null,
      words: [],
    });
  });

  it("is the same in UTC as the wall clock says", () => {
    inZone("UTC", () => {
      const now = Date.UTC(2026, 11, 2, 10, 30);
      expect(parseQueryTime("yesterday", now).period).toMatchObject({
        from: Date.UTC(2026, 11, 1),
        to: Date.UTC(2026, 11, 2),
      });
    });
  });
});

describe("the hint a query needs before any pattern runs", () => {
  // parseQueryTime returns a query without TIME_HINT untouched; that is only right if every phrase it reads holds one.
  const vocabulary = [
    "docker",
    "fix",
    "the",
    "a",
    "few",
    "two",
    "3",
    "12",
    "last",
    "past",
    "this",
    "previous",
    "in",
    "over",
    "on",
    "since",
    "before",
    "after",
    "until",
    "till",
    "yesterday",
    "today",
    "tonight",
    "earlier",
    "morning",
    "evening",
    "night",
    "day",
    "days",
    "week",
    "weeks",
    "weekend",
    "month",
    "months",
    "year",
    "ago",
    "monday",
    "Friday",
    "March",
    "may",
    "3 June 2026",
    "2026-06-03",
    "couple",
    "of",
    "ſince",
    "weeK",
  ];
  it("is held by every time phrase read from random queries", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { maxLength: 8 }), (words) => {
        const { period } = parseQueryTime(words.join(" "), new Date(2026, 11, 2, 10, 30).getTime());
        for (const phrase of period?.words ?? []) expect(TIME_HINT.test(phrase)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });
});
