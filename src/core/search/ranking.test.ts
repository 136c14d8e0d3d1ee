import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/defaults.ts";
import type { ChunkHit, IndexedSession, MemoryType } from "./model.ts";
import { compositeScore, fuseByReciprocalRank, rankSessions, scoreComponents } from "./ranking.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);
const settings = defaultConfig().search;

function session(id: string, ageDays: number): IndexedSession {
  return {
    id,
    project: "p",
    cwd: "/p",
    path: `/p/${id}.jsonl`,
    gitBranch: null,
    createdAt: NOW - ageDays * DAY,
    updatedAt: NOW - ageDays * DAY,
    messageCount: 10,
    title: id,
    tags: [],
    memoryMarkers: [],
  };
}

function hit(chunkId: number, sessionId: string, similarity: number, memoryType: MemoryType | null = null): ChunkHit {
  return { chunkId, sessionId, chunkIndex: chunkId, similarity, memoryType, text: `chunk ${chunkId}` };
}

describe("composite session score", () => {
  it("follows the product document's formula with the default weights", () => {
    const components = scoreComponents(
      { session: session("a", 30), hits: [hit(1, "a", 0.8), hit(2, "a", 0.4)], totalChunks: 4 },
      settings,
      NOW,
    );
    expect(components).toEqual({
      bestSimilarity: 0.8,
      averageSimilarity: expect.closeTo(0.6, 10),
      chunkRatio: 0.5,
      recency: expect.closeTo(Math.exp(-1), 10),
      chainQuality: 0.5,
      boost: 1,
    });
    const expected = 0.4 * 0.8 + 0.2 * 0.6 + 0.05 * 0.5 + 0.25 * Math.exp(-1) + 0.1 * 0.5;
    expect(compositeScore(components, settings)).toBeCloseTo(expected, 10);
  });

  it("applies the largest memory-marker boost among the matched chunks, capped at 1", () => {
    const boosted = scoreComponents(
      {
        session: session("a", 0),
        hits: [hit(1, "a", 1, "WAITING"), hit(2, "a", 1, "WORKING_SOLUTION")],
        totalChunks: 2,
      },
      settings,
      NOW,
    );
    expect(boosted.boost).toBe(1.08);
    expect(compositeScore(boosted, settings)).toBe(1);
    const pattern = scoreComponents(
      { session: session("a", 400), hits: [hit(1, "a", 0.5, "PATTERN")], totalChunks: 1 },
      settings,
      NOW,
    );
    expect(compositeScore(pattern, settings)).toBeCloseTo(
      compositeScore({ ...pattern, boost: 1 }, settings) * 1.05,
      10,
    );
  });

  it("stays within 0..1 when configured weights do not sum to 1", () => {
    const heavy = {
      ...settings,
      weights: { bestSimilarity: 1, averageSimilarity: 1, chunkRatio: 1, recency: 1, chainQuality: 1 },
    };
    const components = scoreComponents(
      { session: session("a", 0), hits: [hit(1, "a", 1)], totalChunks: 1 },
      heavy,
      NOW,
    );
    expect(compositeScore(components, heavy)).toBeCloseTo(0.9, 10);
  });

  it("uses the configured recency decay; a session updated in the future counts as new", () => {
    const slow = { ...settings, recencyDecayDays: 60 };
    const match = { session: session("a", 30), hits: [hit(1, "a", 0.5)], totalChunks: 1 };
    expect(scoreComponents(match, slow, NOW).recency).toBeCloseTo(Math.exp(-0.5), 10);
    expect(scoreComponents({ ...match, session: session("b", -3) }, settings, NOW).recency).toBe(1);
  });

  it("ranks sessions by score, keeps the best chunk, honours the limit", () => {
    const ranked = rankSessions(
      [
        { session: session("old-strong", 300), hits: [hit(1, "old-strong", 0.9)], totalChunks: 3 },
        { session: session("new-weak", 1), hits: [hit(2, "new-weak", 0.1)], totalChunks: 3 },
        {
          session: session("new-strong", 1),
          hits: [hit(3, "new-strong", 0.3), hit(4, "new-strong", 0.95)],
          totalChunks: 2,
        },
      ],
      settings,
      NOW,
      2,
    );
    expect(ranked.map((r) => r.session.id)).toEqual(["new-strong", "old-strong"]);
    expect(ranked[0]?.bestChunk.chunkId).toBe(4);
    expect(ranked[0]).toMatchObject({ matchedChunks: 2, totalChunks: 2 });
  });
});

describe("reciprocal rank fusion", () => {
  it("puts chunks both retrievers found first and keeps the highest calibrated similarity", () => {
    const lexical = [hit(1, "a", 0.9), hit(2, "a", 0.5), hit(3, "b", 0.4)];
    const vector = [hit(3, "b", 0.7), hit(4, "c", 0.6), hit(1, "a", 0.2)];
    const fused = fuseByReciprocalRank([lexical, vector]);
    expect(fused.map((h) => h.chunkId)).toEqual([1, 3, 2, 4]);
    expect(fused.map((h) => h.similarity)).toEqual([0.9, 0.7, 0.5, 0.6]);
    for (const h of fused) expect(h.similarity).toBeGreaterThanOrEqual(0);
  });

  it("with one list keeps its order", () => {
    const list = [hit(5, "a", 0.2), hit(6, "a", 0.9)];
    expect(fuseByReciprocalRank([list]).map((h) => h.chunkId)).toEqual([5, 6]);
    expect(fuseByReciprocalRank([])).toEqual([]);
  });
});
