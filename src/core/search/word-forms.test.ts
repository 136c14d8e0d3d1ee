import { describe, expect, it } from "vitest";
import { buildFtsMatch, selectQueryTerms } from "./fts-query.ts";
import { tokenizeForSearch } from "./tokens.ts";
import { americanSpelling, wordForms } from "./word-forms.ts";

describe("wordForms", () => {
  it.each([
    ["colour", ["color"]],
    ["initialise", ["initialize"]],
    ["behaviours", ["behaviors"]],
    ["licence", ["license"]],
    ["catalogue", ["catalog"]],
    // The package's table has a trailing space after some American spellings.
    ["aeroplanes", ["airplanes"]],
    ["practising", ["practicing"]],
    ["dont", ["don", "t"]],
    ["doesnt", ["doesn", "t"]],
    ["wouldnt", ["wouldn", "t"]],
    ["cant", ["can", "t"]],
    ["wont", ["won", "t"]],
    ["color", ["color"]],
    ["hour", ["hour"]],
    ["promise", ["promise"]],
  ])("%s → %j", (word, forms) => {
    expect(wordForms(word)).toEqual(forms);
  });

  it("leaves a pair the table lists both ways as written (flyer / flier), and anything not a lower-case word", () => {
    expect(americanSpelling("flyer")).toBe("flyer");
    expect(americanSpelling("flier")).toBe("flier");
    expect(americanSpelling("Colour")).toBe("Colour");
    expect(americanSpelling("")).toBe("");
  });
});

describe("the token stream reads both forms of a word as one", () => {
  it.each([
    ["colour", "color"],
    ["the favourite colours", "the favorite colors"],
    ["Colour", "color"],
    ["COLOUR", "color"],
    ["initialised", "initialized"],
    ["dont", "don't"],
    ["Doesnt", "doesn't"],
    ["isnt it", "isn’t it"],
    ["cant", "can't"],
  ])("%s = %s", (british, american) => {
    expect(tokenizeForSearch(british)).toBe(tokenizeForSearch(american));
  });

  it("reads the words of an identifier or a path in American spelling, and keeps its whole form as written", () => {
    expect(tokenizeForSearch("colourPicker").split(" ")).toEqual(["colourpick", "color", "picker"]);
    expect(tokenizeForSearch("src/colour.ts").split(" ")).toContain("color");
    expect(tokenizeForSearch("normalise_rows").split(" ")).toContain("normal");
  });

  it("gives a query typed without apostrophes the terms of the same query with them", () => {
    const terms = (query: string) => selectQueryTerms(tokenizeForSearch(query));
    expect(terms("why doesnt the colour picker work")).toEqual(terms("why doesn't the color picker work"));
    expect(buildFtsMatch(terms("grey theme"))).toBe(buildFtsMatch(terms("gray theme")));
  });
});
