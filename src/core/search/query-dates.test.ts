import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { activeDuring, matchesNamedDate, type NamedPeriod, parseQueryDates } from "./query-dates.ts";

const day = (year: number, month: number, date: number, hour = 12) => new Date(year, month, date, hour).getTime();

describe("parseQueryDates", () => {
  it.each<[string, NamedPeriod[]]>([
    ["what did we ship on 3 June, 2023?", [{ kind: "day", year: 2023, month: 5, day: 3 }]],
    ["the bug from June 3rd 2023", [{ kind: "day", year: 2023, month: 5, day: 3 }]],
    ["migration 2026-11-02 rollback", [{ kind: "day", year: 2026, month: 10, day: 2 }]],
    ["the 3rd of Sept. 2024 outage", [{ kind: "day", year: 2024, month: 8, day: 3 }]],
    ["what broke in March 2026", [{ kind: "month", year: 2026, month: 2, day: null }]],
    ["auth refactor in June", [{ kind: "month", year: null, month: 5, day: null }]],
    ["the rewrite during 2025", [{ kind: "year", year: 2025, month: null, day: null }]],
  ])("%s", (query, expected) => {
    expect(parseQueryDates(query)).toEqual(expected);
  });

  it("reads a date once, at its most precise, and several dates when there are several", () => {
    expect(parseQueryDates("on 3 June 2023 and in July 2024")).toEqual([
      { kind: "day", year: 2023, month: 5, day: 3 },
      { kind: "month", year: 2024, month: 6, day: null },
    ]);
  });

  it("leaves words that only look like months, impossible days and bare numbers alone", () => {
    for (const query of [
      "you may want to march the migration forward",
      "31 February 2023 never happened",
      "2023-13-40 is not a date",
      "error 2023 in the log",
      "port 8080 and 443",
      "",
    ]) {
      expect(parseQueryDates(query)).toEqual([]);
    }
  });

  it("never throws on any text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const period of parseQueryDates(text)) {
          expect(period.month === null || (period.month >= 0 && period.month <= 11)).toBe(true);
        }
      }),
    );
  });
});

describe("activeDuring", () => {
  it("a day: a session that overlaps it in local time, not one that ended before or started after", () => {
    const june3: NamedPeriod = { kind: "day", year: 2023, month: 5, day: 3 };
    expect(activeDuring(june3, day(2023, 5, 3, 9), day(2023, 5, 3, 11))).toBe(true);
    expect(activeDuring(june3, day(2023, 5, 1), day(2023, 5, 5))).toBe(true);
    expect(activeDuring(june3, day(2023, 5, 2, 10), new Date(2023, 5, 2, 23, 59).getTime())).toBe(false);
    expect(activeDuring(june3, new Date(2023, 5, 4, 0, 0).getTime(), day(2023, 5, 4))).toBe(false);
  });

  it("a month without a year matches that month in any year; with a year only that year", () => {
    const june: NamedPeriod = { kind: "month", year: null, month: 5, day: null };
    expect(activeDuring(june, day(2019, 5, 20), day(2019, 5, 21))).toBe(true);
    expect(activeDuring(june, day(2024, 4, 20), day(2024, 6, 2))).toBe(true);
    expect(activeDuring(june, day(2024, 6, 1), day(2024, 6, 2))).toBe(false);
    const june2023: NamedPeriod = { kind: "month", year: 2023, month: 5, day: null };
    expect(activeDuring(june2023, day(2024, 5, 20), day(2024, 5, 21))).toBe(false);
    expect(activeDuring(june2023, day(2023, 5, 30), day(2023, 5, 30))).toBe(true);
  });

  it("matchesNamedDate: any of the periods; none named matches nothing", () => {
    const periods = parseQueryDates("in March 2023 or on 1 May 2024");
    expect(matchesNamedDate(periods, day(2024, 4, 1), day(2024, 4, 1))).toBe(true);
    expect(matchesNamedDate(periods, day(2023, 2, 15), day(2023, 2, 15))).toBe(true);
    expect(matchesNamedDate(periods, day(2023, 4, 1), day(2023, 4, 1))).toBe(false);
    expect(matchesNamedDate([], day(2023, 4, 1), day(2023, 4, 1))).toBe(false);
  });
});
