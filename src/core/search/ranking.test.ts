import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/defaults.ts";
import type { ChunkHit, IndexedSession, MemoryType } from "./model.ts";
import {
  compositeScore,
  DEFAULT_CHAIN_QUALITY,
  fuseByReciprocalRank,
  type RankingSettings,
  rankSessions,
  scoreComponents,
  validateRankingSettings,
} from "./ranking.ts";

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

describe("session score: relevance decides, recency and chain quality break near-ties", () => {
  it("relevance is the weighted mean of best chunk and best passage; the multiplier mixes recency and chain", () => {
    const components = scoreComponents(
      {
        session: session("a", 30),
        hits: [hit(1, "a", 0.8), hit(2, "a", 0.4)],
        totalChunks: 4,
        passageSimilarity: 0.6,
        chainQuality: 1,
      },
      settings,
      NOW,
    );
    expect(components).toEqual({
      relevance: expect.closeTo(0.7, 10),
      bestSimilarity: 0.8,
      passageSimilarity: 0.6,
      averageSimilarity: expect.closeTo(0.6, 10),
      chunkRatio: 0.5,
      promptSimilarity: null,
      feedbackSimilarity: null,
      namedDate: null,
      recency: expect.closeTo(Math.exp(-1), 10),
      chainQuality: 1,
      boost: 1,
      multiplier: expect.closeTo(1 + 0.05 * (0.7 * Math.exp(-1) + 0.3 * 1), 10),
    });
    expect(compositeScore(components)).toBeCloseTo(components.relevance * components.multiplier, 10);
  });

  it("without a passage score the best chunk stands in; without lineage chain quality is neutral", () => {
    const components = scoreComponents(
      { session: session("a", 0), hits: [hit(1, "a", 0.5)], totalChunks: 1 },
      settings,
      NOW,
    );
    expect(components.passageSimilarity).toBe(0.5);
    expect(components.relevance).toBeCloseTo(0.5, 10);
    expect(components.chainQuality).toBe(DEFAULT_CHAIN_QUALITY);
  });

  it("applies the largest memory-marker boost to relevance, capped at 1", () => {
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
    expect(boosted.relevance).toBe(1);
    const pattern = scoreComponents(
      { session: session("a", 400), hits: [hit(1, "a", 0.5, "PATTERN")], totalChunks: 1 },
      settings,
      NOW,
    );
    expect(pattern.relevance).toBeCloseTo(0.5 * 1.05, 10);
  });

  it("feedback and a named date join the mean only when measured, with their weights", () => {
    const match = { session: session("a", 0), hits: [hit(1, "a", 0.8)], totalChunks: 1, passageSimilarity: 0.6 };
    const w = settings.weights;
    const withFeedback = scoreComponents({ ...match, feedbackSimilarity: 0.5 }, settings, NOW);
    expect(withFeedback.feedbackSimilarity).toBe(0.5);
    // Feedback is agreement with the query's own evidence (lexical 0.7): it weighs 0.5 × 0.7 here.
    expect(withFeedback.relevance).toBeCloseTo(
      (0.8 + 0.6 + w.feedbackSimilarity * 0.5 * 0.7) / (2 + w.feedbackSimilarity),
      10,
    );
    expect(scoreComponents({ ...match, feedbackSimilarity: 1 }, settings, NOW).relevance).toBeCloseTo(0.7, 10);
    const onDate = scoreComponents({ ...match, namedDate: true }, settings, NOW);
    const offDate = scoreComponents({ ...match, namedDate: false }, settings, NOW);
    expect([onDate.namedDate, offDate.namedDate]).toEqual([1, 0]);
    expect(onDate.relevance).toBeCloseTo((0.8 + 0.6 + w.namedDate) / (2 + w.namedDate), 10);
    expect(offDate.relevance).toBeCloseTo((0.8 + 0.6) / (2 + w.namedDate), 10);
    expect(onDate.relevance).toBeGreaterThan(scoreComponents(match, settings, NOW).relevance);
    const off = { ...settings, weights: { ...w, feedbackSimilarity: 0, namedDate: 0 } };
    expect(scoreComponents({ ...match, feedbackSimilarity: 1, namedDate: true }, off, NOW).relevance).toBeCloseTo(
      0.7,
      10,
    );
  });

  it("uses the configured recency decay; a session updated in the future counts as new", () => {
    const slow = { ...settings, recencyDecayDays: 60 };
    const match = { session: session("a", 30), hits: [hit(1, "a", 0.5)], totalChunks: 1 };
    expect(scoreComponents(match, slow, NOW).recency).toBeCloseTo(Math.exp(-0.5), 10);
    expect(scoreComponents({ ...match, session: session("b", -3) }, settings, NOW).recency).toBe(1);
  });

  it("ranks an old strong match above a new weak one, keeps the best chunk, honours the limit", () => {
    const ranked = rankSessions(
      [
        { session: session("old-strong", 300), hits: [hit(1, "old-strong", 0.9)], totalChunks: 3 },
        { session: session("new-weak", 1), hits: [hit(2, "new-weak", 0.5)], totalChunks: 3 },
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

  it("counts what the person typed only where it was measured, as a part of the lexical mean", () => {
    const weights = { ...settings.weights, bestSimilarity: 1, passageSimilarity: 1, promptSimilarity: 0.5 };
    const s = { ...settings, weights: { ...weights, feedbackSimilarity: 0, namedDate: 0 } };
    const base = { session: session("a", 0), hits: [hit(1, "a", 0.6)], totalChunks: 4, passageSimilarity: 0.4 };
    // Not measured: the mean of best and passage alone.
    expect(scoreComponents(base, s, NOW).relevance).toBeCloseTo(0.5, 10);
    expect(scoreComponents(base, s, NOW).promptSimilarity).toBeNull();
    // Measured: (1·0.6 + 1·0.4 + 0.5·0.9) / 2.5; and a prompt that holds none of the query's words lowers it.
    expect(scoreComponents({ ...base, promptSimilarity: 0.9 }, s, NOW).relevance).toBeCloseTo(1.45 / 2.5, 10);
    expect(scoreComponents({ ...base, promptSimilarity: 0 }, s, NOW).relevance).toBeCloseTo(1 / 2.5, 10);
  });

  it("validates weights and the margin", () => {
    expect(validateRankingSettings(settings)).toBeNull();
    const zero = { ...settings, weights: { ...settings.weights, bestSimilarity: 0, passageSimilarity: 0 } };
    expect(validateRankingSettings(zero)).toMatch(/cannot all be 0/);
    expect(validateRankingSettings({ ...settings, weights: { ...settings.weights, recency: -1 } })).toMatch(/>= 0/);
    const prompt = { ...settings, weights: { ...settings.weights, promptSimilarity: -1 } };
    expect(validateRankingSettings(prompt)).toMatch(/promptSimilarity must be a number >= 0/);
    expect(validateRankingSettings({ ...settings, tieMargin: 2 })).toMatch(/tieMargin/);
  });
});

const similarity = fc.double({ min: 0, max: 1, noNaN: true });
const weight = fc.double({ min: 0, max: 1, noNaN: true });
const settingsArb = fc
  .record({
    bestSimilarity: weight,
    passageSimilarity: weight,
    averageSimilarity: weight,
    chunkRatio: weight,
    promptSimilarity: weight,
    feedbackSimilarity: weight,
    namedDate: weight,
    recency: weight,
    chainQuality: weight,
    tieMargin: fc.double({ min: 0, max: 0.5, noNaN: true }),
    recencyDecayDays: fc.double({ min: 0.5, max: 400, noNaN: true }),
  })
  .filter((w) => w.bestSimilarity + w.passageSimilarity + w.averageSimilarity + w.chunkRatio > 0.01)
  .map(
    ({ tieMargin, recencyDecayDays, ...weights }): RankingSettings => ({
      weights,
      tieMargin,
      recencyDecayDays,
      boosts: settings.boosts,
    }),
  );
const sessionArb = fc.record({
  best: similarity,
  passage: similarity,
  prompt: similarity,
  feedback: similarity,
  /** null: the query names no date (the same for every session of one query). */
  named: fc.boolean(),
  ageDays: fc.double({ min: 0, max: 2_000, noNaN: true }),
  chain: similarity,
  matched: fc.integer({ min: 1, max: 5 }),
  total: fc.integer({ min: 5, max: 20 }),
});
type SessionShape = {
  best: number;
  passage: number;
  prompt?: number;
  feedback: number;
  named: boolean;
  ageDays: number;
  chain: number;
  matched: number;
  total: number;
};
function matchesOf(id: string, shape: SessionShape) {
  return {
    session: session(id, shape.ageDays),
    hits: Array.from({ length: shape.matched }, (_, i) =>
      hit(i + (id === "a" ? 0 : 100), id, i === 0 ? shape.best : shape.best / 2),
    ),
    totalChunks: shape.total,
    passageSimilarity: shape.passage,
    ...(shape.prompt === undefined ? {} : { promptSimilarity: shape.prompt }),
    feedbackSimilarity: shape.feedback,
    namedDate: shape.named,
    chainQuality: shape.chain,
  };
}
const order = (a: SessionShape, b: SessionShape, s: RankingSettings) =>
  rankSessions([matchesOf("a", a), matchesOf("b", b)], s, NOW, 2).map((r) => r.session.id);

describe("ranking properties", () => {
  it("a session more relevant by more than the margin ranks first, however old it is and whatever its chain", () => {
    fc.assert(
      fc.property(settingsArb, sessionArb, sessionArb, (s, a, b) => {
        const ra = rankSessions([matchesOf("a", a)], s, NOW, 1)[0]?.components.relevance ?? 0;
        const rb = rankSessions([matchesOf("b", b)], s, NOW, 1)[0]?.components.relevance ?? 0;
        fc.pre(ra > rb * (1 + s.tieMargin) + 1e-9);
        expect(order(a, b, s)).toEqual(["a", "b"]);
      }),
    );
  });

  it("better on every relevance component (and no older, no worse chain) never ranks below", () => {
    fc.assert(
      fc.property(settingsArb, sessionArb, sessionArb, (s, a, b) => {
        const better = {
          ...b,
          best: Math.min(1, b.best + 0.01),
          passage: Math.min(1, b.passage + 0.01),
          prompt: Math.min(1, (b.prompt ?? 0) + 0.01),
          feedback: Math.min(1, b.feedback + 0.01),
          named: b.named || a.named,
          matched: b.matched,
          total: b.total,
          ageDays: Math.max(0, b.ageDays - a.ageDays / 10),
          chain: Math.max(b.chain, a.chain),
        };
        expect(order(better, b, s)[0]).toBe("a");
      }),
    );
  });

  it("among equally relevant sessions with the same chain quality, the newer ranks first", () => {
    fc.assert(
      fc.property(settingsArb, sessionArb, fc.double({ min: 0.5, max: 500, noNaN: true }), (s, b, older) => {
        fc.pre(b.best > 0);
        const newer = { ...b };
        const old = { ...b, ageDays: b.ageDays + older };
        expect(order(old, newer, s)).toEqual(["b", "a"]);
      }),
    );
  });

  it("feedback never lifts relevance above what the session's own words earned", () => {
    fc.assert(
      fc.property(settingsArb, sessionArb, (s, a) => {
        const { feedbackSimilarity: _, ...unmeasured } = matchesOf("a", a);
        const without = scoreComponents(unmeasured, s, NOW).relevance;
        // A date the query names and the session misses (0) dilutes relevance below its words' own; feedback (at
        // most the words' score) may win some of that back, never more.
        const { namedDate: __, ...words } = unmeasured;
        const earned = scoreComponents(words, s, NOW).relevance;
        expect(scoreComponents(matchesOf("a", a), s, NOW).relevance).toBeLessThanOrEqual(
          Math.max(without, earned) + 1e-12,
        );
      }),
    );
  });

  it("feedback never lifts relevance past its words' own: the counterexample fast-check found", () => {
    const s = {
      weights: {
        bestSimilarity: 0.010000000000000002,
        passageSimilarity: 0,
        averageSimilarity: 0,
        chunkRatio: 0,
        promptSimilarity: 0,
        feedbackSimilarity: 4.933987246547041e-14,
        namedDate: 0.003936288758235032,
        recency: 0,
        chainQuality: 0,
      },
      tieMargin: 0,
      recencyDecayDays: 0.5,
      boosts: { PATTERN: 1.05, WORKING_SOLUTION: 1.08, WAITING: 1.02 },
    };
    const a = {
      best: 0.9999999999999989,
      passage: 0,
      feedback: 0.9999999999999996,
      named: false,
      ageDays: 0,
      chain: 0,
      matched: 1,
      total: 5,
    };
    const { feedbackSimilarity: _, namedDate: __, ...words } = matchesOf("a", a);
    expect(scoreComponents(matchesOf("a", a), s, NOW).relevance).toBeLessThanOrEqual(
      scoreComponents(words, s, NOW).relevance + 1e-12,
    );
  });

  it("the score stays within relevance × (1 + margin), relevance within 0..1", () => {
    fc.assert(
      fc.property(settingsArb, sessionArb, (s, a) => {
        const ranked = rankSessions([matchesOf("a", a)], s, NOW, 1)[0];
        if (ranked === undefined) throw new Error("no result");
        const { relevance } = ranked.components;
        expect(relevance).toBeGreaterThanOrEqual(0);
        expect(relevance).toBeLessThanOrEqual(1);
        expect(ranked.score).toBeGreaterThanOrEqual(relevance - 1e-12);
        expect(ranked.score).toBeLessThanOrEqual(relevance * (1 + s.tieMargin) + 1e-12);
      }),
    );
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
