import { describe, expect, it } from "vitest";
import { buildFtsMatch, MAX_QUERY_TERMS, quoteFtsTerm, selectQueryTerms } from "./fts-query.ts";
import { tokenizeForSearch } from "./tokens.ts";

describe("FTS5 query building", () => {
  it("quotes every term and doubles quotes inside, joined with OR", () => {
    expect(buildFtsMatch(["near", "a*", '"x"', "(y)", "-z"])).toBe('"near" OR "a*" OR """x""" OR "(y)" OR "-z"');
    expect(quoteFtsTerm('say "hi"')).toBe('"say ""hi"""');
  });

  it("has nothing to search for an empty query", () => {
    expect(buildFtsMatch(selectQueryTerms(""))).toBeNull();
    expect(buildFtsMatch(selectQueryTerms("   \n "))).toBeNull();
  });

  it("drops duplicates and stopwords, unless only stopwords are left", () => {
    expect(selectQueryTerms("how do i fix the login login bug")).toEqual(["fix", "login", "bug"]);
    // Stopwords are matched in their stemmed form, as the token stream carries them (`was` → `wa`).
    expect(selectQueryTerms(tokenizeForSearch("Was it fixed, and has it been released?"))).toEqual(["fix", "releas"]);
    expect(selectQueryTerms("what is this")).toEqual(["what", "is", "this"]);
  });

  it("splits where the index tokenizer splits (non-ASCII punctuation) and caps the term count", () => {
    expect(selectQueryTerms("x—y don't src/a.ts")).toEqual(["x", "y", "don't", "src/a.ts"]);
    const many = Array.from({ length: 100 }, (_, i) => `t${i}`).join(" ");
    expect(selectQueryTerms(many)).toHaveLength(MAX_QUERY_TERMS);
  });
});
