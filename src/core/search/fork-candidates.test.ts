import { describe, expect, it } from "vitest";
import {
  describeAge,
  forkCommandFor,
  quoteForShell,
  renderForkCandidates,
  renderNoMatch,
  toForkCandidate,
  trimPreview,
} from "./fork-candidates.ts";
import type { RankedSession } from "./model.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const DAY = 86_400_000;

function ranked(overrides: { updatedAt?: number; cwd?: string | null; title?: string } = {}): RankedSession {
  return {
    session: {
      id: "4d5611e5-0000-4000-8000-000000000001",
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
    score: 0.734,
    components: {
      bestSimilarity: 0.9,
      averageSimilarity: 0.7,
      chunkRatio: 0.3,
      recency: 0.93,
      chainQuality: 0.5,
      boost: 1,
    },
    bestChunk: {
      chunkId: 7,
      sessionId: "4d5611e5-0000-4000-8000-000000000001",
      chunkIndex: 3,
      similarity: 0.9,
      memoryType: null,
      text: "User: the login test fails\n\nAssistant: the fix was a missing await",
    },
    matchedChunks: 4,
    totalChunks: 12,
  };
}

describe("fork candidates", () => {
  it("quotes folders so any name pastes safely into a shell", () => {
    expect(quoteForShell("/home/user/app")).toBe("'/home/user/app'");
    expect(quoteForShell("/tmp/it's here")).toBe(`'/tmp/it'\\''s here'`);
    expect(forkCommandFor("abc", "/w/$(rm -rf ~)")).toBe("cd '/w/$(rm -rf ~)' && claude --resume abc --fork-session");
    expect(forkCommandFor("abc", null)).toBe("claude --resume abc --fork-session");
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
      scorePercent: 73,
      relativeDate: "2 days ago",
      topic: "Fix the flaky login test",
      messageCount: 42,
      transcriptExists: true,
      expiresInDays: 28,
      warning: null,
      forkCommand: "cd '/home/user/app' && claude --resume 4d5611e5-0000-4000-8000-000000000001 --fork-session",
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
      "ctx archive restore 4d5611e5-0000-4000-8000-000000000001 && cd '/home/user/app' && claude --resume 4d5611e5-0000-4000-8000-000000000001 --fork-session",
    );
    expect(archived.warning).toContain("ctx archived it");
  });

  it("renders candidates and the no-match options", () => {
    const text = renderForkCandidates("login test", [
      toForkCandidate(ranked(), 1, { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW - 2 * DAY }),
    ]);
    expect(text).toContain('Sessions matching "login test"');
    expect(text).toContain("1. Fix the flaky login test");
    expect(text).toContain("fork: cd '/home/user/app' && claude --resume");
    const closest = toForkCandidate(ranked(), 1, { now: NOW, cleanupPeriodDays: 30, transcriptModifiedAt: () => NOW });
    const none = renderNoMatch("quantum", closest, 35);
    expect(none).toContain('the closest, "Fix the flaky login test", reached 90% similarity');
    expect(none).toContain("at least 35% is needed");
    expect(none).toContain("start fresh");
    expect(renderNoMatch("quantum", null, 35)).toContain("nothing in the index matched");
  });
});
