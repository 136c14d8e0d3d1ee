import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestPassageSimilarity, PASSAGE_TOKENS, type WeightedQuery } from "./passage.ts";

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
