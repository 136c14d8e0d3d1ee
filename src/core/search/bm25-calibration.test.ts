import { describe, expect, it } from "vitest";
import {
  BM25_K1,
  calibrateBm25,
  inverseDocumentFrequency,
  REFERENCE_TERM_FREQUENCY,
  referenceScore,
  selectDiscriminatingTerms,
  smoothedInverseDocumentFrequency,
  WHOLE_INDEX_CHUNKS,
  weighTerms,
} from "./bm25-calibration.ts";

describe("BM25 calibration", () => {
  it("uses FTS5's idf, floored for terms in more than half the documents", () => {
    expect(inverseDocumentFrequency(1, 100)).toBeCloseTo(Math.log(99.5 / 1.5), 10);
    expect(inverseDocumentFrequency(80, 100)).toBe(1e-6);
  });

  it("gives 1 to the reference chunk and scales linearly below it, never above 1", () => {
    const counts = [2, 10];
    const reference = referenceScore(counts, 1000);
    const saturation = (REFERENCE_TERM_FREQUENCY * (BM25_K1 + 1)) / (REFERENCE_TERM_FREQUENCY + BM25_K1);
    expect(reference).toBeCloseTo(
      saturation * (inverseDocumentFrequency(2, 1000) + inverseDocumentFrequency(10, 1000)),
      10,
    );
    expect(calibrateBm25(reference, reference)).toBe(1);
    expect(calibrateBm25(reference / 2, reference)).toBeCloseTo(0.5, 10);
    expect(calibrateBm25(reference * 3, reference)).toBe(1);
    expect(calibrateBm25(0, reference)).toBe(0);
    expect(calibrateBm25(5, 0)).toBe(0);
  });

  it("a query with words no chunk holds has a higher reference, so the same hit looks weaker", () => {
    const known = referenceScore([3], 500);
    const withUnknown = referenceScore([3, 0], 500);
    expect(calibrateBm25(known / 2, withUnknown)).toBeLessThan(calibrateBm25(known / 2, known));
  });

  it("leaves out terms in half the documents or more (they add nothing to a score), but never all of them", () => {
    expect(selectDiscriminatingTerms(["rare", "common", "unseen"], [3, 60, 0], 100)).toEqual(["rare", "unseen"]);
    expect(selectDiscriminatingTerms(["a", "b"], [80, 55], 100)).toEqual(["b"]);
    expect(selectDiscriminatingTerms([], [], 100)).toEqual([]);
    // Terms no document holds find nothing: with them, the rarest held term is kept as when they are absent.
    expect(selectDiscriminatingTerms(["a", "unseen", "b"], [80, 0, 55], 100)).toEqual(["unseen", "b"]);
    expect(selectDiscriminatingTerms(["unseen", "other"], [0, 0], 100)).toEqual(["unseen", "other"]);
  });

  it("weighs a small index's terms whole, with the smoothed idf, when one it holds is in half its chunks or more", () => {
    expect(smoothedInverseDocumentFrequency(12, 14)).toBeCloseTo(Math.log(1 + 2.5 / 12.5), 10);
    expect(smoothedInverseDocumentFrequency(14, 14)).toBeGreaterThan(0);
    const whole = weighTerms(["session", "see", "unseen"], [12, 3, 0], 14);
    expect(whole.whole).toBe(true);
    expect(whole.terms).toEqual(["session", "see", "unseen"]);
    expect(whole.idf[0]).toBeGreaterThan(0);
    expect(whole.idf[0]).toBeLessThan(whole.idf[1] ?? 0);
    expect(whole.reference).toBeCloseTo(referenceScore([12, 3, 0], 14, smoothedInverseDocumentFrequency), 10);
    // No common term, or an index past the bound: FTS5's idf over the discriminating terms.
    const rare = weighTerms(["see", "unseen"], [3, 0], 14);
    expect(rare).toEqual({
      terms: ["see", "unseen"],
      idf: [inverseDocumentFrequency(3, 14), inverseDocumentFrequency(0, 14)],
      reference: referenceScore([3, 0], 14),
      whole: false,
    });
    const large = weighTerms(["session", "see"], [900, 3], WHOLE_INDEX_CHUNKS + 1);
    expect(large.whole).toBe(false);
    expect(large.terms).toEqual(["see"]);
    // A common term the index does not hold cannot be: n = 0 is never common.
    expect(weighTerms(["x"], [0], 4).whole).toBe(false);
  });
});
