import { describe, expect, it } from "vitest";
import { locateJsonError } from "./json-position.ts";

describe("locateJsonError", () => {
  it.each([
    ['{"a": 1}', -1],
    ['[1, -2.5e+3, "x\\u00e9\\n", true, false, null, {}]', -1],
    ['{"a": }', 6],
    ['{\n  "a": 1,\n}', 12],
    ['{"a" 1}', 5],
    ['{"a": 1} x', 9],
    ['{"a":', 5],
    ["", 0],
    ['{"a": tru}', 9],
    ['{"a": 01}', 7],
    ['{"a": "\\x"}', 8],
    ['{"a": "tab\there"}', 10],
    ["{'a': 1}", 1],
    ['{"a": 1,}', 8],
  ])("%j -> %i", (text, expected) => {
    expect(locateJsonError(text)).toBe(expected);
  });

  it("agrees with JSON.parse on what is valid", () => {
    for (const text of ['{"a": [1, {"b": null}]}', '{"a": 1,}', "[1 2]", '"x"', "1.", "-", "1e5"]) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(locateJsonError(text) === -1, text).toBe(valid);
    }
  });
});
