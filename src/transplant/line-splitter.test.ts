import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter.ts";

function split(text: string, piece: number, max?: number): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter(max);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += piece)
    splitter.push(bytes.subarray(at, at + piece), (l) => lines.push(l.toString()));
  splitter.end((l) => lines.push(`${l.toString()}<end>`));
  return lines;
}

describe("LineSplitter", () => {
  it("hands on whole lines whatever the pieces, and an unterminated last line at the end", () => {
    const text = '{"a":1}\n\n{"é":"ü"}\nlast';
    for (const piece of [1, 2, 5, 100]) expect(split(text, piece)).toEqual(['{"a":1}', "", '{"é":"ü"}', "last<end>"]);
    expect(split("a\n", 1)).toEqual(["a"]);
  });

  it("passes over lines longer than its limit", () => {
    expect(split("short\nmuch-too-long\nok\n", 3, 5)).toEqual(["short", "ok"]);
  });
});
