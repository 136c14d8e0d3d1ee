import { describe, expect, it } from "vitest";
import { redactText } from "../redact/redact.ts";
import { liftChainQuality, PAID_OFF_GAP_CLOSED } from "./chain-lift.ts";
import { buildForkHistory, FORK_WINDOW_MS, type IndexedFork, paidOffBySource } from "./fork-history.ts";
import type { ForkLogRecord } from "./fork-log-schema.ts";
import { OFFER_SESSIONS, offerRecord, QUERY_CHARS, queryHashOf } from "./fork-offer.ts";

const redact = (text: string) => redactText(text).text;

import type { ForkOwnPart } from "./fork-outcome.ts";

// A fixed clock: every time is an offset from this.
const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const HOUR = 3_600_000;

function own(prompts: number, files: string[], firstAt: number, point: string | null = null): ForkOwnPart {
  return {
    prompts,
    replies: prompts,
    filesModified: files,
    filesModifiedCount: files.length,
    firstAt,
    lastAt: firstAt + 10 * 60_000,
    sawPoint: point,
  };
}

function fork(sessionId: string, parentId: string, part: ForkOwnPart | null, forkedAgain = false): IndexedFork {
  return {
    sessionId,
    parentId,
    project: "-home-user-app",
    cwd: "/home/user/app",
    createdAt: NOW - 100 * HOUR,
    updatedAt: NOW,
    forkedAgain,
    own: part,
  };
}

const offer = (at: number, ...ids: string[]): ForkLogRecord =>
  offerRecord(
    at,
    "cli",
    "retry helper",
    ids.map((sessionId) => ({ sessionId, point: `${sessionId}-point` })),
    redact,
  );

describe("buildForkHistory", () => {
  it("matches a fork to the search that offered its source before it, within the window", () => {
    const records: ForkLogRecord[] = [
      offer(NOW - 3 * HOUR, "src-a", "src-b"),
      { kind: "run", at: NOW - 2 * HOUR, via: "picker", sessionId: "src-a", point: null },
      offer(NOW - 2 * HOUR, "src-c"),
      offer(NOW - HOUR, "src-z"),
    ];
    const history = buildForkHistory(records, [
      fork("fork-a", "src-a", own(4, ["/home/user/app/a.ts"], NOW - 2 * HOUR + 1000)),
      // Made 25 hours after the search: a new decision, not the search's.
      fork("fork-b", "src-b", own(1, [], NOW - 3 * HOUR + FORK_WINDOW_MS + HOUR)),
      // Made before the search that offered its source.
      fork("fork-c", "src-c", own(1, [], NOW - 3 * HOUR)),
      // Never offered: a plain `claude --resume --fork-session`.
      fork("fork-d", "src-d", own(3, [], NOW - 30 * HOUR), true),
    ]);
    const byId = new Map(history.forks.map((record) => [record.sessionId, record]));
    expect(byId.get("fork-a")).toMatchObject({
      source: "src-a",
      fromSearch: true,
      ranBy: "picker",
      offer: { at: NOW - 3 * HOUR, via: "cli", query: "retry helper" },
      outcome: { verdict: "paid-off", prompts: 4, filesModifiedCount: 1, durationMs: 600_000 },
    });
    expect(byId.get("fork-b")).toMatchObject({ fromSearch: false, offer: null, outcome: { verdict: "abandoned" } });
    expect(byId.get("fork-c")?.fromSearch).toBe(false);
    expect(byId.get("fork-d")).toMatchObject({
      fromSearch: false,
      outcome: { verdict: "paid-off", forkedAgain: true },
    });
    // Newest first.
    expect(history.forks.map((record) => record.sessionId)).toEqual(["fork-b", "fork-a", "fork-c", "fork-d"]);
    expect(history).toMatchObject({
      searches: 3,
      searchesWithOffers: 3,
      searchesFollowedByFork: 1,
      verdicts: { "paid-off": 2, abandoned: 2, continued: 0, unknown: 0 },
    });
    expect(history.successRate).toBeCloseTo(1 / 3);
  });

  it("keeps the point only when the fork's copy ended there, and an unknown outcome when the transcript is gone", () => {
    const history = buildForkHistory(
      [offer(NOW - HOUR, "src-a")],
      [fork("fork-a", "src-a", own(1, [], NOW, "src-a-point")), fork("fork-gone", "src-a", null)],
    );
    const byId = new Map(history.forks.map((record) => [record.sessionId, record]));
    expect(byId.get("fork-a")?.point).toBe("src-a-point");
    expect(byId.get("fork-gone")?.outcome.verdict).toBe("unknown");
  });

  it("counts only what happened since `since`; with no search that offered anything the rate is null", () => {
    const history = buildForkHistory(
      [offer(NOW - 48 * HOUR, "src-a"), offerRecord(NOW - HOUR, "mcp", "nothing", [], null)],
      [fork("fork-a", "src-a", own(1, [], NOW - 47 * HOUR))],
      { since: NOW - 2 * HOUR },
    );
    expect(history.forks).toEqual([]);
    expect(history.searches).toBe(1);
    expect(history.searchesWithOffers).toBe(0);
    expect(history.successRate).toBeNull();
  });

  it("is empty for an empty log and index", () => {
    expect(buildForkHistory([], [])).toMatchObject({ forks: [], searches: 0, successRate: null });
  });
});

describe("offerRecord", () => {
  it("redacts a secret in the query, cuts a long one and keeps OFFER_SESSIONS sessions", () => {
    const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-AAAAAA";
    const record = offerRecord(NOW, "cli", `fix auth ${secret}\n\u001b[31mred`, [], redact);
    expect(record.query).not.toContain(secret);
    expect(record.query).toContain("fix auth");
    const long = offerRecord(
      NOW,
      "cli",
      "x".repeat(1024 * 1024),
      Array.from({ length: 50 }, (_, i) => ({ sessionId: `s${i}`, point: null })),
      redact,
    );
    expect(long.query?.length).toBe(QUERY_CHARS);
    expect(long.sessions).toHaveLength(OFFER_SESSIONS);
  });

  it("keeps only the query's hash without a redactor: the same words, the same hash", () => {
    const record = offerRecord(NOW, "cli", `deploy with ${"x".repeat(10)}`, [], null);
    expect(record.query).toBeNull();
    expect(record.queryHash).toMatch(/^[0-9a-f]{32}$/);
    expect(record.queryHash).toBe(queryHashOf(`deploy with ${"x".repeat(10)}`));
    expect(record.queryHash).not.toBe(queryHashOf("deploy with"));
    expect(JSON.stringify(record)).not.toContain("deploy");
  });
});

describe("the chain-quality lift", () => {
  it("closes PAID_OFF_GAP_CLOSED of the gap to 1 per paid-off fork, and leaves a source without one alone", () => {
    expect(liftChainQuality(0.5, 0)).toBe(0.5);
    expect(liftChainQuality(0.5, 1)).toBeCloseTo(1 - 0.5 * (1 - PAID_OFF_GAP_CLOSED));
    expect(liftChainQuality(0.5, 2)).toBeCloseTo(0.875);
    expect(liftChainQuality(1, 3)).toBe(1);
  });

  it("counts paid-off forks per source", () => {
    const history = buildForkHistory(
      [],
      [
        fork("f1", "src-a", own(1, ["/x"], NOW)),
        fork("f2", "src-a", own(7, [], NOW)),
        fork("f3", "src-b", own(1, [], NOW)),
      ],
    );
    expect([...paidOffBySource(history.forks)]).toEqual([["src-a", 2]]);
  });
});
