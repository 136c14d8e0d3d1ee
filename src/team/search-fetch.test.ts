// startTeamFetch's deadline against an answer that came while the thread was busy: the server side is a stand-in
// (the fetch's own PostgreSQL path is tests/e2e/team-search.test.ts), so the one thing measured is the event loop's order.
import { stat } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultConfig } from "../config/defaults.ts";
import type { TeamCandidates } from "../core/search/team-candidates.ts";

const answer = vi.hoisted(() => ({ settle: null as null | (() => Promise<unknown>) }));
vi.mock("./search.ts", () => ({ searchTeam: () => answer.settle?.() }));
const { startTeamFetch } = await import("./search-fetch.ts");

const candidates: TeamCandidates = { chunks: [], sessions: new Map(), statistics: null };

function joined(connectTimeoutMs: number) {
  const config = defaultConfig();
  config.team = { ...config.team, url: "postgresql://member@127.0.0.1/library", name: "scale", connectTimeoutMs };
  return config;
}

/** Holds the thread as a long synchronous local search would. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

afterEach(() => {
  answer.settle = null;
});

describe("startTeamFetch's deadline", () => {
  it("keeps an answer that came while the thread was held past the deadline", async () => {
    // The answer is one I/O completion (a stat's, as a socket's data would be): ready during the busy spell, read on
    // the loop's next poll phase, which comes after the expired timer's turn.
    answer.settle = () => new Promise((resolve) => stat(import.meta.filename, () => resolve(candidates)));
    const fetching = startTeamFetch(joined(20), {}, { query: "tunnel", filters: {} });
    busyFor(150);
    const fetched = await fetching;
    expect(fetched.notice).toBeNull();
    expect(fetched.candidates).toBe(candidates);
  });

  it("still says the server did not answer when nothing came", async () => {
    answer.settle = () => new Promise(() => {});
    const fetched = await startTeamFetch(joined(20), {}, { query: "tunnel", filters: {} });
    expect(fetched.candidates).toBeNull();
    expect(fetched.notice).toBe(
      "team results left out: the team server did not answer within 20 ms (team.connectTimeoutMs)",
    );
  });
});
