// The query read for time words and exclusions together, the lines shown back, and the real coding queries that must
// keep their meaning (tests/fixtures/eval-coding).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describePeriod, renderListing, understandQuery, understoodLines } from "./query-understanding.ts";

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "Europe/Berlin";
});
afterAll(() => {
  process.env.TZ = savedTz;
});

// Wednesday 2 December 2026, 10:30 in Berlin.
const now = () => new Date(2026, 11, 2, 10, 30).getTime();
const day = (y: number, m: number, d: number, h = 0) => new Date(y, m - 1, d, h).getTime();

describe("understandQuery", () => {
  it("is null for a query without time words or exclusions: it is searched exactly as before", () => {
    expect(understandQuery("docker compose networking error", now())).toBeNull();
    expect(understandQuery("what broke in March 2026", now())).toBeNull();
  });

  it("reads both, exclusions first, and says what it searched", () => {
    const understood = understandQuery("last week docker -kubernetes", now());
    expect(understood).toEqual({
      text: "docker",
      textWithTime: "last week docker",
      period: { from: day(2026, 11, 23), to: day(2026, 11, 30), words: ["last week"] },
      excluded: ["kubernetes"],
      event: null,
      listing: false,
    });
    expect(understoodLines(understood ?? never())).toEqual([
      "Searched sessions from 23–29 Nov 2026 (last week).",
      'Left out sessions about "kubernetes".',
    ]);
    expect(understoodLines(understood ?? never(), "empty")[0]).toBe(
      "No session is from 23–29 Nov 2026 (last week): searched sessions of any date.",
    );
    expect(understoodLines(understood ?? never(), "unmatched")[0]).toBe(
      "No session from 23–29 Nov 2026 (last week) matches: searched sessions of any date.",
    );
    expect(understoodLines(understood ?? never(), "weak")[0]).toBe(
      "No session from 23–29 Nov 2026 (last week) matches strongly: searched sessions of any date.",
    );
    // An exclusion is never read as a time word.
    expect(understandQuery('auth -"last week"', now())).toMatchObject({
      text: "auth",
      period: null,
      excluded: ["last week"],
    });
  });

  it("reads an event bound, keeps its words searched, and says which session it found", () => {
    const understood = understandQuery("lint rules before the migration to pnpm", now()) ?? never();
    expect(understood).toMatchObject({
      text: "lint rules before the migration to pnpm",
      period: null,
      event: { side: "before", words: "the migration to pnpm" },
      listing: false,
    });
    const session = { id: "s", title: "Move to pnpm", createdAt: day(2026, 11, 3, 9), updatedAt: day(2026, 11, 3, 10) };
    expect(understoodLines(understood, false, session)).toEqual([
      'Ranked sessions before "the migration to pnpm" higher (the session "Move to pnpm", 3 Nov 2026).',
    ]);
    expect(understoodLines(understood)).toEqual([
      'Found no session about "the migration to pnpm": "before the migration to pnpm" did not change the ranking.',
    ]);
  });

  it("lists instead of searching when only time words and asking words are left", () => {
    expect(understandQuery("what did I do yesterday", now())).toMatchObject({ text: "what did I do", listing: true });
    expect(understandQuery("what did I work on this morning?", now())).toMatchObject({ listing: true });
    expect(understandQuery("yesterday", now())).toMatchObject({ text: "", listing: true });
    expect(understandQuery("-docker", now())).toMatchObject({ text: "", listing: true, period: null });
    expect(understandQuery("what did I do about redis yesterday", now())).toMatchObject({ listing: false });
    // "work" is a topic when no time word says "my sessions".
    expect(understandQuery("work -docker", now())).toMatchObject({ text: "work", listing: false });
  });

  it("reads a hostile megabyte: at most 8 time phrases and 16 exclusions, the rest left as words", () => {
    const many = understandQuery(`${"-docker ".repeat(70_000)}${"yesterday today ".repeat(30_000)}tar -xzf`, now());
    expect(many?.excluded).toHaveLength(16);
    expect(many?.period?.words).toHaveLength(8);
    expect(many?.text.endsWith("tar -xzf")).toBe(true);
    const escapes = understandQuery('auth -"\u001b[2J\nfork: rm -rf /" yesterday', now());
    expect(escapes?.excluded).toEqual(["\u001b[2J\nfork: rm -rf /"]);
    expect(escapes?.text).toBe("auth");
  });

  it("keeps the meaning of every real coding query", () => {
    const lines = readFileSync(join(import.meta.dirname, "../../../tests/fixtures/eval-coding/queries.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(30);
    for (const line of lines) {
      const { query } = JSON.parse(line) as { query: string };
      expect(understandQuery(query, now()), query).toBeNull();
    }
  });
});

describe("describePeriod", () => {
  it("writes the window in local dates, the end day inclusive", () => {
    expect(describePeriod({ from: day(2026, 12, 1), to: day(2026, 12, 2) })).toBe("on 1 Dec 2026");
    expect(describePeriod({ from: day(2026, 11, 30), to: day(2026, 12, 7) })).toBe("from 30 Nov – 6 Dec 2026");
    expect(describePeriod({ from: day(2026, 12, 28), to: day(2027, 1, 4) })).toBe("from 28 Dec 2026 – 3 Jan 2027");
    expect(describePeriod({ from: day(2026, 12, 2), to: day(2026, 12, 2, 12) })).toBe("on 2 Dec 2026, 00:00–12:00");
    expect(describePeriod({ from: day(2026, 11, 29), to: null })).toBe("since 29 Nov 2026");
    expect(describePeriod({ from: null, to: day(2026, 6, 3) })).toBe("before 3 Jun 2026");
    expect(describePeriod({ from: day(2026, 12, 2), to: day(2026, 12, 1) })).toMatch(/^of no date/);
    // 25 October 2026 has 25 hours in Berlin: still one day.
    expect(describePeriod({ from: day(2026, 10, 25), to: day(2026, 10, 26) })).toBe("on 25 Oct 2026");
  });
});

describe("renderListing", () => {
  it("lists the window's sessions, or says there are none", () => {
    const understood = understandQuery("what did I do yesterday", now()) ?? never();
    const text = renderListing(understood, [
      {
        sessionId: "s1",
        topic: "Fix login",
        project: "-app",
        cwd: "/app",
        relativeDate: "yesterday",
        forkCommand: "c1",
        starred: true,
        labels: ["auth"],
        note: null,
      },
    ]);
    expect(text).toContain("Sessions on 1 Dec 2026, most recent first:");
    expect(text).toContain("1. Fix login");
    expect(text).toContain("   yours: ★ starred · tags: auth");
    expect(renderListing(understood, [])).toMatch(/^No session on 1 Dec 2026 is in the index/);
  });
});

function never(): never {
  throw new Error("expected a value");
}
