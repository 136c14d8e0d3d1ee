import { describe, expect, it } from "vitest";
import { CtxError } from "../../../errors.ts";
import { detectJsonStyle, jsonEqual, parseJsonObjectFile, serializeJson } from "./json-text.ts";

describe("parseJsonObjectFile", () => {
  it("names the file, line and column of a syntax error", () => {
    const attempt = () => parseJsonObjectFile(".mcp.json", '{\n  "a": 1,\n}\n');
    expect(attempt).toThrow(CtxError);
    expect(attempt).toThrow(/\.mcp\.json is not valid JSON: .* at line 3, column 1/);
  });

  it("reports an unexpected end at the end of the text", () => {
    expect(() => parseJsonObjectFile("s.json", '{"a":')).toThrow(/line 1, column 6/);
  });

  it("rejects a JSON value that is not an object", () => {
    expect(() => parseJsonObjectFile("s.json", "[1]")).toThrow(/must hold a JSON object.*an array/);
  });

  it("takes an empty file as an empty object", () => {
    expect(parseJsonObjectFile("s.json", "  \n").value).toEqual({});
  });

  it("keeps the user's key order", () => {
    const { value } = parseJsonObjectFile("s.json", '{"z": 1, "a": 2, "m": 3}');
    expect(Object.keys(value)).toEqual(["z", "a", "m"]);
  });
});

describe("style-preserving output", () => {
  it.each([
    ['{\n    "a": [\n        1\n    ]\n}\n', "four spaces"],
    ['{\n\t"a": 1\n}', "tabs, no final newline"],
    ['{\r\n  "a": 1\r\n}\r\n', "CRLF"],
    ['\uFEFF{\n  "a": 1\n}\n', "BOM"],
  ])("re-serialises %j byte for byte (%s)", (text) => {
    const { value, style } = parseJsonObjectFile("s.json", text);
    expect(serializeJson(value, style)).toBe(text);
  });

  it("writes new files with 2 spaces and a trailing newline", () => {
    expect(serializeJson({ a: 1 })).toBe('{\n  "a": 1\n}\n');
    expect(detectJsonStyle('{"a":1}').indent).toBe("  ");
  });
});

describe("jsonEqual", () => {
  it("sees key order", () => {
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, b: 2 })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
  });
});
