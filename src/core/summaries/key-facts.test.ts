// The extractive provider on the real transcript fixtures: the share of each fixture's key facts (written by
// reading the transcripts, tests/fixtures/summaries/key-facts.ts) its summaries keep, and how much shorter
// they are. bench/summaries.bench.ts prints the same figures.
import { describe, expect, it } from "vitest";
import { measureAllFixtures } from "../../../tests/fixtures/summaries/measure.ts";

const results = measureAllFixtures();

describe("extractive summaries of the real fixtures", () => {
  it.each(results)("$transcript: every checklist fact is in the transcript itself", (result) => {
    const original = result.original.toLowerCase();
    expect(result.facts.filter((fact) => !original.includes(fact.toLowerCase()))).toEqual([]);
  });

  it.each(results)("$transcript: keeps at least 70% of its key facts", (result) => {
    expect(result.kept.length / result.facts.length).toBeGreaterThanOrEqual(0.7);
  });

  it("keeps at least 90% of all key facts together (measured: 76 of 81)", () => {
    const kept = results.reduce((sum, result) => sum + result.kept.length, 0);
    const total = results.reduce((sum, result) => sum + result.facts.length, 0);
    expect(kept / total).toBeGreaterThanOrEqual(0.9);
  });

  it("is 20-30% of the original length over all fixtures, and at most 30% on each long one", () => {
    const original = results.reduce((sum, result) => sum + result.originalChars, 0);
    const summary = results.reduce((sum, result) => sum + result.summaryChars, 0);
    expect(summary / original).toBeGreaterThanOrEqual(0.2);
    expect(summary / original).toBeLessThanOrEqual(0.3);
    for (const result of results.filter((r) => r.originalChars > 5_000)) {
      expect(result.summaryChars / result.originalChars, result.transcript).toBeLessThanOrEqual(0.3);
    }
  });
});
