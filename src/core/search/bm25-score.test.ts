// The scorer must give every chunk exactly FTS5's own bm25() (then calibrated): checked against the index built
// from the fixture transcripts, for queries of common and rare words.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import { openSessionIndex, type SessionIndex } from "../../search/session-index/session-index.ts";
import { syncIndex } from "../../search/sync/sync-index.ts";
import { calibrateBm25 } from "./bm25-calibration.ts";
import { chunkTerms, ftsTokens, scoreBm25, scoreBm25Counts } from "./bm25-score.ts";
import { tokenizeForSearch } from "./tokens.ts";

let index: SessionIndex;
beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "ctx-bm25-"));
  const dbPath = join(root, "index.db");
  await syncIndex({ claudeDir: layOutClaudeDir(root), dbPath });
  index = openSessionIndex(dbPath, { readonly: true });
});
afterAll(() => index.close());

describe("scoreBm25", () => {
  it.each([
    "credo dialyzer mix_audit igniter",
    "init analyze codebase CLAUDE.md future instances",
    "start phoenix in the background",
    "the test file src/core/redact/redact.ts",
  ])("scores every hit of %j as FTS5 does", (query) => {
    const hits = index.searchChunks(query, {}, 300);
    expect(hits.length).toBeGreaterThan(3);
    const model = index.bm25Model(query);
    expect(model.averageTokens).toBeGreaterThan(10);
    for (const hit of hits) {
      const score = scoreBm25(ftsTokens(tokenizeForSearch(hit.text)), model);
      expect(calibrateBm25(score, model.reference)).toBeCloseTo(hit.similarity, 9);
      // From the chunk's term counts (what a team chunk is pushed with): the same score.
      const counted = chunkTerms(hit.text);
      const frequency = new Map(counted.terms.map((term, i) => [term, counted.counts[i] ?? 0]));
      expect(scoreBm25Counts((term) => frequency.get(term) ?? 0, counted.tokens, model)).toBe(score);
    }
  });

  it("counts each distinct term of a chunk once in its terms, with how often it holds it", () => {
    const counted = chunkTerms("Fix the parser. The parser fails; fix it.");
    expect(counted.terms.length).toBe(new Set(counted.terms).size);
    expect(counted.counts.reduce((sum, n) => sum + n, 0)).toBe(counted.tokens);
    expect(counted.counts[counted.terms.indexOf("parser")]).toBe(2);
  });

  it("scores nothing for a text without the terms, or a query without terms", () => {
    const model = index.bm25Model("phoenix");
    expect(scoreBm25(["unrelated", "words"], model)).toBe(0);
    expect(index.bm25Model("").terms).toEqual([]);
  });
});
