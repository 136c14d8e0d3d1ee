import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestPassageSimilarity, capByPool, PASSAGE_TOKENS, POOL_WEIGHT_CAP, type WeightedQuery } from "./passage.ts";

const query: WeightedQuery = { terms: ["login", "flaki", "await"], idf: [2, 3, 1], reference: 6 * ((3 * 2.2) / 4.2) };
const filler = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);

describe("best passage", () => {
  it("scores query terms held together above the same terms spread over the chunk", () => {
    const together = [...filler(200), "login", "flaki", "await", ...filler(200)];
    const apart = ["login", ...filler(200), "flaki", ...filler(200), "await"];
    expect(bestPassageSimilarity(together, query)).toBeGreaterThan(bestPassageSimilarity(apart, query));
    // Apart, the best window holds the rarest term alone: idf 3 · (k1+1)/(1+k1) = 3.
    expect(bestPassageSimilarity(apart, query)).toBeCloseTo(3 / query.reference, 10);
  });

  it("is 0 without a query term, and 1 at most", () => {
    expect(bestPassageSimilarity(filler(100), query)).toBe(0);
    expect(bestPassageSimilarity(["login"], { terms: [], idf: [], reference: 0 })).toBe(0);
    const saturated = Array.from({ length: PASSAGE_TOKENS }, (_, i) => query.terms[i % 3] ?? "");
    expect(bestPassageSimilarity(saturated, query)).toBe(1);
  });

  it("equals the brute-force best window", () => {
    const vocabulary = ["login", "flaki", "await", "x", "y"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...vocabulary), { maxLength: 120 }),
        fc.integer({ min: 1, max: 40 }),
        (tokens, w) => {
          let best = 0;
          for (let start = 0; start < tokens.length; start++) {
            let score = 0;
            query.terms.forEach((term, i) => {
              const f = tokens.slice(start, start + w).filter((t) => t === term).length;
              if (f > 0) score += ((query.idf[i] ?? 0) * f * 2.2) / (f + 1.2);
            });
            best = Math.max(best, score);
          }
          expect(bestPassageSimilarity(tokens, query, w)).toBeCloseTo(Math.min(1, best / query.reference), 10);
        },
      ),
    );
  });
});

describe("capByPool", () => {
  const named: WeightedQuery = { terms: ["melani", "run", "pottery"], idf: [8, 3, 6], reference: 20 };
  const session = (...words: string[]) => [[...words, ...filler(5)]];

  it("caps a word by the share of the pool's sessions holding it, and leaves the reference", () => {
    const pool = [session("melani", "run"), session("melani"), session("melani"), session("melani", "pottery")];
    const capped = capByPool(named, pool);
    expect(capped.terms).toEqual(named.terms);
    expect(capped.reference).toBe(20);
    // melani: in all 4, POOL_WEIGHT_CAP · ln 2; run and pottery: in 1 of 4, the cap (1.5 · ln 5 = 2.41) is below
    // both.
    expect(capped.idf[0]).toBeCloseTo(POOL_WEIGHT_CAP * Math.log(2), 12);
    expect(capped.idf[1]).toBeCloseTo(POOL_WEIGHT_CAP * Math.log(5), 12);
    expect(capped.idf[2]).toBeCloseTo(POOL_WEIGHT_CAP * Math.log(5), 12);
    // A word rare in the pool keeps a lower corpus weight; one no session holds keeps its own.
    const low: WeightedQuery = { terms: ["melani", "run", "absent"], idf: [8, 1.2, 9], reference: 20 };
    expect(capByPool(low, pool).idf.slice(1)).toEqual([1.2, 9]);
  });

  it("counts a session once however many of its chunks hold the word", () => {
    const pool = [[["melani"], ["melani", "melani"]], [["run"]], [["x"]]];
    expect(capByPool(named, pool).idf[0]).toBeCloseTo(POOL_WEIGHT_CAP * Math.log(1 + 3 / 1), 12);
  });

  it("leaves the query as it is with fewer than two sessions or no terms", () => {
    expect(capByPool(named, [session("melani")])).toBe(named);
    expect(capByPool(named, [])).toBe(named);
    const empty: WeightedQuery = { terms: [], idf: [], reference: 0 };
    expect(capByPool(empty, [session("a"), session("b")])).toBe(empty);
  });
});
