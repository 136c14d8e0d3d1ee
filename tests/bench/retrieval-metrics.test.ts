import { describe, expect, it } from "vitest";
import { evidenceSessionNumbers } from "../../bench/locomo-data.ts";
import { buildBm25, tokenizePlain } from "../../bench/retrieval-bm25.ts";
import {
  allRelevantAtK,
  evidenceRecallAtK,
  firstRelevantRank,
  hitAtK,
  reciprocalRank,
  summarizeByCategory,
  summarizeOutcomes,
} from "../../bench/retrieval-metrics.ts";

const ranked = ["s3", "s1", "s7", "s2", "s9", "s4"];

describe("retrieval metrics", () => {
  it("finds the first relevant rank, hit@k and the reciprocal rank", () => {
    expect(firstRelevantRank(ranked, ["s2", "s7"])).toBe(3);
    expect(hitAtK(ranked, ["s2", "s7"], 1)).toBe(0);
    expect(hitAtK(ranked, ["s2", "s7"], 3)).toBe(1);
    expect(reciprocalRank(ranked, ["s2", "s7"])).toBeCloseTo(1 / 3);
    expect(firstRelevantRank(ranked, ["missing"])).toBeNull();
    expect(reciprocalRank(ranked, ["missing"])).toBe(0);
  });

  it("scores R@k the paper's way: evidence items, a session counted once per item", () => {
    // Three evidence items in s1, one in s4: the top 2 holds three of the four.
    expect(evidenceRecallAtK(ranked, ["s1", "s1", "s1", "s4"], 2)).toBe(0.75);
    expect(evidenceRecallAtK(ranked, ["s1", "s1", "s1", "s4"], 6)).toBe(1);
    expect(evidenceRecallAtK(ranked, [], 5)).toBe(0);
    expect(allRelevantAtK(ranked, ["s1", "s4"], 5)).toBe(0);
    expect(allRelevantAtK(ranked, ["s1", "s9"], 5)).toBe(1);
  });

  it("averages per query and keeps excluded categories out of the headline", () => {
    const outcomes = [
      { category: "single-hop", ranked, relevant: ["s3"], evidenceSessions: ["s3"] },
      { category: "single-hop", ranked, relevant: ["s4"], evidenceSessions: ["s4"] },
      { category: "adversarial", ranked, relevant: ["s1"], evidenceSessions: ["s1"] },
    ];
    expect(summarizeOutcomes(outcomes.slice(0, 2))).toEqual({
      queries: 2,
      hitAt1: 0.5,
      hitAt3: 0.5,
      hitAt5: 0.5,
      mrr: Math.round(((1 + 1 / 6) / 2) * 1000) / 1000,
      recallAt2: 0.5,
      recallAt5: 0.5,
      recallAt10: 1,
      allAt5: 0.5,
      emptyAnswers: 0,
    });
    const summary = summarizeByCategory(outcomes, ["adversarial"]);
    expect(summary.overall.queries).toBe(2);
    expect(summary.byCategory.adversarial?.mrr).toBe(0.5);
    expect(summarizeOutcomes([]).hitAt1).toBe(0);
  });

  it("counts hit@3 apart from hit@1 and hit@5, and empty answers as a count", () => {
    const outcomes = [
      { category: "error", ranked: ["a", "b", "c"], relevant: ["c"], evidenceSessions: ["c"] },
      { category: "error", ranked: ["a", "b", "c", "d"], relevant: ["d"], evidenceSessions: ["d"] },
      { category: "vague", ranked: [], relevant: ["a"], evidenceSessions: ["a"] },
      { category: "vague", ranked: ["a"], relevant: ["a"], evidenceSessions: ["a"] },
    ];
    const all = summarizeOutcomes(outcomes);
    expect([all.hitAt1, all.hitAt3, all.hitAt5]).toEqual([0.25, 0.5, 0.75]);
    expect(all.emptyAnswers).toBe(1);
    expect(all.mrr).toBe(Math.round(((1 / 3 + 1 / 4 + 0 + 1) / 4) * 1000) / 1000);
    expect(summarizeByCategory(outcomes).byCategory.vague?.emptyAnswers).toBe(1);
  });

  it("reads session numbers out of irregular evidence ids", () => {
    expect(evidenceSessionNumbers(["D1:3", "D8:6; D9:17", "D:11:26", "D"])).toEqual([1, 8, 9, 11]);
  });
});

describe("plain BM25 baseline", () => {
  it("drops stop words and ranks the session that holds the rare term first", () => {
    expect(tokenizePlain("When did Caroline go to the LGBTQ-support group?")).toEqual([
      "caroline",
      "go",
      "lgbtq",
      "support",
      "group",
    ]);
    const bm25 = buildBm25([
      { id: "a", text: "We went hiking in the mountains and talked about the weather." },
      { id: "b", text: "Caroline joined a support group last week; the group met on Sunday." },
      { id: "c", text: "The weather was nice, the weather was warm." },
    ]);
    expect(bm25.rank("Which support group did Caroline join?")[0]).toBe("b");
    expect(bm25.rank("weather", new Set(["a", "b"]))).toEqual(["a", "b"]);
  });
});
