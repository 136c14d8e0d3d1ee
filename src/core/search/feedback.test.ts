import { describe, expect, it } from "vitest";
import { feedbackQuery, feedbackTerms } from "./feedback.ts";
import { bestPassageSimilarity } from "./passage.ts";

const tokens = (text: string) => text.split(" ");

describe("feedbackTerms (RM1)", () => {
  it("weighs terms by their share of each document times the document's weight, heaviest first", () => {
    const terms = feedbackTerms(
      [
        { tokens: tokens("salari hous salari mortgag"), weight: 1 },
        { tokens: tokens("hous garden"), weight: 0.4 },
      ],
      new Set(),
      10,
    );
    expect(terms.map((t) => t.term)).toEqual(["salari", "hous", "mortgag", "garden"]);
    expect(terms.map((t) => t.weight)).toEqual([0.5, 0.25 + 0.2, 0.25, 0.2]);
  });

  it("leaves out the query's own terms, function words, short tokens and bare numbers; honours max", () => {
    const terms = feedbackTerms(
      [{ tokens: tokens("john the was it 42 2023 ab salari budget rent"), weight: 1 }],
      new Set(["john"]),
      2,
    );
    expect(terms.map((t) => t.term)).toEqual(["budget", "rent"]);
    expect(
      feedbackTerms(
        [
          { tokens: [], weight: 1 },
          { tokens: tokens("rent"), weight: 0 },
        ],
        new Set(),
        5,
      ),
    ).toEqual([]);
  });
});

describe("feedbackQuery", () => {
  it("scales each term by its weight relative to the heaviest and calibrates to half the full reference", () => {
    const query = feedbackQuery([
      { term: "salari", weight: 2, idf: 3 },
      { term: "rent", weight: 1, idf: 2 },
      { term: "none", weight: 0, idf: 2 },
    ]);
    expect(query?.terms).toEqual(["salari", "rent"]);
    expect(query?.idf).toEqual([3, 1]);
    // A chunk holding every feedback term often reaches 1; one holding only the weak one stays low.
    if (query === null) throw new Error("no query");
    expect(bestPassageSimilarity(tokens("salari salari salari rent rent"), query, 1000)).toBe(1);
    const reference = (3 + 1) * ((3 * 2.2) / (3 + 1.2)) * 0.5;
    expect(bestPassageSimilarity(tokens("rent lunch"), query, 1000)).toBeCloseTo(1 / reference, 10);
    expect(feedbackQuery([])).toBeNull();
    expect(feedbackQuery([{ term: "x", weight: 1, idf: 0 }])).toBeNull();
  });
});
