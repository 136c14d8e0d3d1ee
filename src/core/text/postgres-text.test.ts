import { describe, expect, it } from "vitest";
import { REPLACEMENT_CHARACTER as R, storableJson, storableText, storableValues } from "./postgres-text.ts";

describe("text PostgreSQL can store", () => {
  it("replaces NUL and lone surrogates with U+FFFD, and keeps pairs, other controls and the rest", () => {
    expect(storableText("a\u0000b\u0000")).toBe(`a${R}b${R}`);
    expect(storableText("high \ud83d alone")).toBe(`high ${R} alone`);
    expect(storableText("low \ude00 alone")).toBe(`low ${R} alone`);
    expect(storableText("\ude00\ud83d")).toBe(`${R}${R}`);
    expect(storableText("end \ud83d")).toBe(`end ${R}`);
    for (const kept of ["", "plain", "emoji 😀 pair", "tab\tnew\nline\u0001\u007f", "é 中文 \ufffd"]) {
      expect(storableText(kept)).toBe(kept);
    }
  });

  it("is idempotent and keeps the text's length in UTF-16 units", () => {
    const once = storableText("x\u0000\ud800y\udc00😀");
    expect(storableText(once)).toBe(once);
    expect(once).toHaveLength("x\u0000\ud800y\udc00😀".length);
  });

  it("makes jsonb values and keys storable: no \\u0000 escape and no lone surrogate escape is left", () => {
    const json = storableJson({ "k\u0000": ["v\u0000", { "\ud800": "\udfff", n: 1, ok: null }], plain: "😀" });
    expect(json).not.toMatch(/\\u0000|\\ud[89ab]|\\ud[c-f]/i);
    expect(JSON.parse(json)).toEqual({ [`k${R}`]: [`v${R}`, { [R]: R, n: 1, ok: null }], plain: "😀" });
    expect(storableJson({ parents: [], chainQuality: 0.5 })).toBe('{"parents":[],"chainQuality":0.5}');
  });

  it("cleans a statement's string and string-array parameters, and leaves bytes, numbers and null", () => {
    const bytes = Buffer.from([0, 1, 2]);
    const cleaned = storableValues(["a\u0000", ["b\u0000", null, "\ud800"], 7, null, true, bytes]);
    expect(cleaned).toEqual([`a${R}`, [`b${R}`, null, R], 7, null, true, bytes]);
    expect(cleaned[5]).toBe(bytes);
  });
});
