import { describe, expect, it } from "vitest";
import {
  describeAge,
  forkArgv,
  forkCommandFor,
  inSessionCommandFor,
  renderForkCandidates,
  renderNoMatch,
  toForkCandidate,
  trimPreview,
} from "./fork-candidates.ts";
import type { MarkerHit, RankedSession } from "./model.ts";

const ID = "4d5611e5-0000-4000-8000-000000000001";
const NOW = Date.parse("2026-11-22T12:00:00Z");
const DAY = 86_400_000;

function ranked(
  overrides: { id?: string; updatedAt?: number; cwd?: string | null; title?: string; markers?: MarkerHit[] } = {},
): RankedSession {
  return {
    session: {
      id: overrides.id ?? "4d5611e5-0000-4000-8000-000000000001",
      project: "-home-user-app",
      cwd: overrides.cwd === undefined ? "/home/user/app" : overrides.cwd,
      path: "/claude/projects/-home-user-app/4d5611e5.jsonl",
      gitBranch: "main",
      createdAt: NOW - 3 * DAY,
      updatedAt: overrides.updatedAt ?? NOW - 2 * DAY,
      messageCount: 42,
      title: overrides.title ?? "Fix the flaky login test",
      tags: [],
      memoryMarkers: [],
    },
    score: 0.76,
    components: {
      relevance: 0.734,
      bestSimilarity: 0.9,
      passageSimilarity: 0.568,
      averageSimilarity: 0.7,
      chunkRatio: 0.3,
      promptSimilarity: null,
      feedbackSimilarity: null,
      namedDate: null,
      recency: 0.93,
      chainQuality: 0.5,
      boost: 1,
      multiplier: 1.035,
    },
    bestChunk: {
      chunkId: 7,
      sessionId: "4d5611e5-0000-4000-8000-000000000001",
      chunkIndex: 3,
      similarity: 0.9,
      memoryType: null,
      text: "User: the login test fails\n\nAssistant: the fix was a missing await",
    },
    markers: overrides.markers ?? [],
    matchedChunks: 4,
    totalChunks: 12,
  };
}

describe("fork candidates", () => {
  it("quotes folders so any name pastes safely into a shell", () => {
    expect(forkCommandFor(ID, "/home/user/app")).toBe(`cd /home/user/app && claude --resume ${ID} --fork-session`);
    expect(forkCommandFor(ID, "/tmp/it's here")).toBe(
      `cd '/tmp/it'\\''s here' && claude --resume ${ID} --fork-session`,
    );
    expect(forkCommandFor(ID, "/w/$(rm -rf ~)")).toBe(`cd '/w/$(rm -rf ~)' && claude --resume ${ID} --fork-session`);
    expect(forkCommandFor(ID, null)).toBe(`claude --resume ${ID} --fork-session`);
  });

  it("break 5: quotes the session id too, in the fork, fork-at-point and archive restore commands", () => {
    expect(forkCommandFor("a;touch PWN2;#", "/p")).toBe("cd /p && claude '--resume=a;touch PWN2;#' --fork-session");
    expect(forkCommandFor("$(touch PWN3)", null, "u'1")).toBe(
      `claude '--resume=$(touch PWN3)' --fork-session --resume-session-at 'u'\\''1'`,
    );
    // Claude Code's --resume takes an optional value: an id shaped like a flag is bound to it, never a flag itself.
    expect(forkArgv("--dangerously-skip-permissions")).toEqual([
      "--resume=--dangerously-skip-permissions",
      "--fork-session",
    ]);
    expect(forkArgv("4d5611e5-0000-4000-8000-000000000001", "u-1")).toEqual([
      "--resume",
      "4d5611e5-0000-4000-8000-000000000001",
      "--fork-session",
      "--resume-session-at",
      "u-1",
    ]);
    const archived = toForkCandidate(ranked({ id: "a;touch PWN2;#" }), 1, {
      now: NOW,
      cleanupPeriodDays: 30,
      transcriptModifiedAt: () => null,
      isArchived: () => true,
    });
    expect(archived.forkCommand).toMatch(/^ctx archive restore -- 'a;touch PWN2;#' && /);
  });

  it("break 5: offers /resume only with a real session id (it is typed into Claude Code, not a shell)", () => {
    expect(inSessionCommandFor("4d5611e5-0000-4000-8000-000000000001")).toBe(
      "/resume 4d5611e5-0000-4000-8000-000000000001, then /branch",
    );
    expect(inSessionCommandFor("a;touch PWN2;#")).toBe("/resume (pick the session), then /branch");
  });

  it("describes ages the way people say them", () => {
    expect(describeAge(NOW - 10_000, NOW)).toBe("just now");
    expect(describeAge(NOW - 5 * 60_000, NOW)).toBe("5 minutes ago");
    expect(describeAge(NOW - 3 * 3_600_000, NOW)).toBe("3 hours ago");
    expect(describeAge(NOW - DAY, NOW)).toBe("yesterday");
    expect(describeAge(NOW - 12 * DAY, NOW)).toBe("12 days ago");
    expect(describeAge(NOW - 120 * DAY, NOW)).toBe("3 months ago");
    expect(describeAge(NOW - 800 * DAY, NOW)).toBe("2 years ago");
  });

  it("trims previews at a word boundary and folds whitespace", () => {
    expect(trimPreview("a\n\n b   c")).toBe("a b c");
    const long = `${"word ".repeat(100)}end`;
    const out = trimPreview(long, 50);
    expect(out.length).toBeLessThanOrEqual(52);
    expect(out.endsWith(" …")).toBe(true);
    expect(out).not.toContain("wor …");
  });

  it("builds a candidate with the fork command, the in-session route and no warning when fresh", () => {
    const candidate = toForkCandidate(ranked(), 1, {
      now: NOW,
      cleanupPeriodDays: 30,
      transcriptModifiedAt: () => NOW - 2 * DAY,
    });
    expect(candidate).toMatchObject({
      rank: 1,
      score: 0.734,
      scorePercent: 73,
      weak: false,
      rankScore: 0.76,
      relativeDate: "2 days ago",
      topic: "Fix the flaky login test",
      messageCount: 42,
      transcriptExists: true,
      expiresInDays: 28,
      warning: null,
      forkCommand: "cd /home/user/app && claude --resume 4d5611e5-0000-4000-8000-000000000001 --fork-session",
      inSessionCommand: "/resume 4d5611e5-0000-4000-8000-000000000001, then /branch",
    });
    expect(candidate.preview).toBe("User: the login test fails Assistant: the fix was a missing await");
  });

  it("warns when the transcript is close to Claude Code's cleanup or already gone", () => {
    const old = toForkCandidate(ranked({ updatedAt: NOW - 26 * DAY }), 2, {
      now: NOW,
      cleanupPeriodDays: 30,
      transcriptModifiedAt: () => NOW - 26 * DAY,
    });
    expect(old.expiresInDays).toBe(4);
    expect(old.warning).toContain("may be removed in 4 day(s)");
    const gone = toForkCandidate(ranked(), 3, { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => null });
    expect(gone.expiresInDays).toBeNull();
    expect(gone.warning).toContain("cannot be resumed");
    // Gone from Claude Code's folder but archived by ctx: the fork command restores it first.
    const archived = toForkCandidate(ranked(), 3, {
      now: NOW,
      cleanupPeriodDays: 30,
      transcriptModifiedAt: () => null,
      isArchived: (id) => id === "4d5611e5-0000-4000-8000-000000000001",
    });
    expect(archived.forkCommand).toBe(
      "ctx archive restore 4d5611e5-0000-4000-8000-000000000001 && cd /home/user/app && claude --resume 4d5611e5-0000-4000-8000-000000000001 --fork-session",
    );
    expect(archived.warning).toContain("ctx archived it");
  });

  it("renders strong matches, then a weak-matches line and the weak ones; one percent everywhere", () => {
    const context = { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW - 2 * DAY };
    const strong = toForkCandidate(ranked(), 1, context);
    const weak = toForkCandidate(ranked({ title: "Old unrelated chat" }), 2, context, true);
    const text = renderForkCandidates("login test", [strong, weak], 25);
    expect(text).toContain('Sessions matching "login test"');
    expect(text).toContain("1. Fix the flaky login test");
    expect(text).toContain("73% match");
    expect(text).toContain("fork: cd /home/user/app && claude --resume");
    const line = text.indexOf("weak matches (below 25% relevance)");
    expect(line).toBeGreaterThan(text.indexOf("1. Fix the flaky login test"));
    expect(line).toBeLessThan(text.indexOf("2. Old unrelated chat"));
    expect(renderForkCandidates("login test", [strong], 25)).not.toContain("weak matches");
  });

  it("rounds a weak match's percent down, so it never reads as the line it is below", () => {
    const context = { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW - 2 * DAY };
    const near = (relevance: number) => {
      const session = ranked();
      return { ...session, components: { ...session.components, relevance } };
    };
    expect(toForkCandidate(near(0.2496), 2, context, true).scorePercent).toBe(24);
    expect(toForkCandidate(near(0.25), 1, context).scorePercent).toBe(25);
    expect(toForkCandidate(near(0.2496), 1, context).scorePercent).toBe(25);
    const text = renderForkCandidates("login test", [toForkCandidate(near(0.2496), 1, context, true)], 25);
    expect(text).toContain("24% match");
  });

  it("names the memory markers that lifted a session in its first line", () => {
    const marked = toForkCandidate(
      ranked({
        markers: [
          { type: "WORKING_SOLUTION", chunkIndex: 3 },
          { type: "WAITING", chunkIndex: 5 },
        ],
      }),
      1,
      { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW - 2 * DAY },
    );
    expect(marked.markers).toEqual([
      { type: "WORKING_SOLUTION", chunkIndex: 3 },
      { type: "WAITING", chunkIndex: 5 },
    ]);
    const text = renderForkCandidates("login test", [marked], 30);
    expect(text).toMatch(/\d+% match · working solution, waiting · /);
    const plain = toForkCandidate(ranked(), 1, { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW });
    expect(renderForkCandidates("login test", [plain], 30)).not.toContain("working solution");
  });

  it("with only weak matches says so above them, and never shows an empty answer", () => {
    const context = { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW - 2 * DAY };
    const text = renderForkCandidates("quantum", [toForkCandidate(ranked(), 1, context, true)], 35);
    expect(text).toContain('No session matches "quantum" strongly (at least 35% relevance); the closest ones:');
    expect(text).toContain("1. Fix the flaky login test");
    expect(text).toContain("73% match");
    expect(text).not.toContain("── weak matches");
  });

  it("carries the person's star, tags and note, and shows them in the text", () => {
    const context = { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW - 2 * DAY };
    const plain = toForkCandidate(ranked(), 1, context);
    expect([plain.starred, plain.labels, plain.note]).toEqual([false, [], null]);
    const entry = ranked();
    entry.session.annotation = { starred: true, labels: ["auth", "db"], note: "the backoff fix" };
    const noted = toForkCandidate(entry, 1, context);
    expect([noted.starred, noted.labels, noted.note]).toEqual([true, ["auth", "db"], "the backoff fix"]);
    const text = renderForkCandidates("login", [noted, plain], 35);
    expect(text).toContain("   yours: ★ starred · tags: auth, db · note: the backoff fix");
    expect(text.match(/yours:/g)).toHaveLength(1);
  });

  it("a team result shows its author's own tags and note as theirs, apart from yours", () => {
    const context = { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => null };
    const entry = ranked();
    entry.team = {
      author: "bobby",
      project: "github.com/acme/app",
      branch: "main",
      forkable: true,
      local: false,
      labels: ["deploy"],
      note: "the detached start",
    };
    const candidate = toForkCandidate(entry, 1, context);
    expect([candidate.starred, candidate.labels, candidate.note]).toEqual([false, [], null]);
    const text = renderForkCandidates("login", [candidate], 35);
    expect(text).toContain(
      "   team: by bobby · github.com/acme/app · branch main · on the team server · their tags: deploy · their note: the detached start",
    );
    expect(text).not.toContain("yours:");
  });

  it("when nothing matches at all offers the options and recent sessions", () => {
    const none = renderNoMatch("quantum", [
      {
        sessionId: "s1",
        topic: "Recent work",
        project: "p",
        cwd: "/p",
        relativeDate: "yesterday",
        forkCommand: "f",
        starred: true,
        labels: ["auth"],
        note: null,
      },
    ]);
    expect(none).toContain("   yours: ★ starred · tags: auth");
    expect(none).toContain("nothing in the index holds its words");
    expect(none).toContain("start fresh");
    expect(none).toContain("1. Recent work · yesterday · /p");
  });
});
