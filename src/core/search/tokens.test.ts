import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitCamelCase, tokenizeForSearch } from "./tokens.ts";

describe("tokenizeForSearch", () => {
  it.each([
    ["parseTranscriptLine", "parsetranscriptlin pars transcript line"],
    ["snake_case_name", "snakecasenam snake case name"],
    ["src/core/redact.ts", "srccoreredactt src core redact ts"],
    ["HTTPServer getURL", "httpserver http server geturl get url"],
    ["Hello, World! 42", "hello world 42"],
    ["Edit src/a.ts; Bash: pnpm test", "edit srcat src a ts bash pnpm test"],
    ["__init__ --force", "init forc"],
    ["C:\\Users\\me\\app.py", "c usersmeapppi user me app py"],
    ["v2.1.38", "v2138 v2 1 38"],
    ["déjà-vu Café", "déjàvu déjà vu café"],
    ["日本語のテキスト", "日本語のテキスト"],
    ["... --- !!! ", ""],
    ["painting paints Painted", "paint paint paint"],
  ])("%s → %s", (text, tokens) => {
    expect(tokenizeForSearch(text)).toBe(tokens);
  });

  it("drops tokens longer than 64 characters (base64, minified code)", () => {
    expect(tokenizeForSearch(`short ${"A".repeat(65)} tail`)).toBe("short tail");
  });

  it("is lower-case, single-spaced and idempotent on its own words", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const tokens = tokenizeForSearch(text);
        expect(tokens).toBe(tokens.toLowerCase());
        expect(tokens).not.toMatch(/^ | $| {2}/);
        for (const token of tokens.split(" ").filter((word) => word !== "")) {
          expect(tokenizeForSearch(token)).toBe(token);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("splits text into the runs of letters, digits, marks and _ . / \\ - of any script, as a regex does", () => {
    // The scan of character codes must find exactly these words, also around non-ASCII text and lone surrogates.
    const pieces = [
      "a",
      "Z",
      "é",
      "ß",
      "日本",
      "😀",
      "\u0301",
      "-",
      ".",
      "/",
      "\\",
      "_",
      " ",
      "\n",
      "\u00a0",
      "\ud800",
    ];
    const piece = fc.constantFrom(...pieces, "\udc00", "x9", "HTTPServer", "parse_Line", "İ", "٣", "Ωmega", "Painting");
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        const words = text.match(/[\p{L}\p{N}\p{M}_./\\-]+/gu) ?? [];
        const expected = words.map((word) => tokenizeForSearch(word)).filter((tokens) => tokens !== "");
        expect(tokenizeForSearch(text)).toBe(expected.join(" "));
      }),
      { numRuns: 2_000, seed: 11 },
    );
  });

  it("matches a query for an identifier against text that spells it in parts, and the reverse", () => {
    const text = new Set(tokenizeForSearch("we call parseTranscriptLine here").split(" "));
    for (const word of tokenizeForSearch("parse transcript line").split(" ")) expect(text.has(word)).toBe(true);
    const parts = new Set(tokenizeForSearch("the parse_transcript_line helper").split(" "));
    expect(parts.has(tokenizeForSearch("parseTranscriptLine").split(" ")[0] as string)).toBe(true);
  });
});

describe("splitCamelCase", () => {
  // The split as the Unicode expressions make it, for every word: the ASCII ones must agree with it.
  const unicodeSplit = (word: string) =>
    word
      .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
      .split(" ");

  it("splits an ASCII word as the Unicode expressions do", () => {
    const letters = fc.constantFrom(..."aAbBzZ09xXyYÉéß".split(""));
    fc.assert(
      fc.property(fc.array(letters, { maxLength: 12 }), (chars) => {
        const word = chars.join("");
        expect(splitCamelCase(word)).toEqual(unicodeSplit(word));
      }),
      { numRuns: 5000 },
    );
    expect(splitCamelCase("HTTPServer2Error")).toEqual(["HTTP", "Server2", "Error"]);
    expect(splitCamelCase("snakecase")).toEqual(["snakecase"]);
  });
});
