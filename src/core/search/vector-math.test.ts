import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dotProduct, normalizeL2, similarityFromCosine, topIndexes } from "./vector-math.ts";

describe("normalizeL2", () => {
  it("scales to unit length and keeps the direction", () => {
    const out = normalizeL2([3, 4]);
    expect(Array.from(out ?? [])).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });

  it("refuses vectors with no direction or non-finite values", () => {
    expect(normalizeL2([0, 0, 0])).toBeNull();
    expect(normalizeL2([1, Number.NaN])).toBeNull();
    expect(normalizeL2([1, Number.POSITIVE_INFINITY])).toBeNull();
  });
});

describe("similarityFromCosine", () => {
  it("maps the floor to 0, the ceiling to 1, and clamps outside", () => {
    expect(similarityFromCosine(0.25)).toBe(0);
    expect(similarityFromCosine(0.85)).toBeCloseTo(1, 10);
    expect(similarityFromCosine(-1)).toBe(0);
    expect(similarityFromCosine(1)).toBe(1);
    expect(similarityFromCosine(0.55)).toBeCloseTo(0.5, 10);
  });
});

describe("topIndexes", () => {
  it("equals a full sort of the finite scores, for any input", () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 60 }),
        fc.nat(20),
        (values, k) => {
          const scores = Float32Array.from(values);
          const expected = [...scores.keys()].sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
          expect(topIndexes(scores, k).map((i) => scores[i])).toEqual(expected.slice(0, k).map((i) => scores[i]));
        },
      ),
    );
  });

  it("skips non-finite (filtered) scores", () => {
    expect(topIndexes(Float32Array.from([Number.NEGATIVE_INFINITY, 0.2, 0.9]), 5)).toEqual([2, 1]);
  });

  it("dot product of unit vectors is their cosine", () => {
    expect(dotProduct(Float32Array.from([1, 0]), Float32Array.from([0.6, 0.8]))).toBeCloseTo(0.6, 6);
  });
});
