import { describe, expect, it } from "vitest";
import { JsonDepthScanner } from "./json-depth.ts";
import { MAX_JSON_DEPTH, rewriteTranscriptLine } from "./transcript-cwd.ts";

function scan(text: string, pieceBytes = 3, limit?: number): number | null {
  const scanner = new JsonDepthScanner(limit);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += pieceBytes) scanner.push(bytes.subarray(at, at + pieceBytes));
  return scanner.tooDeepLine;
}

describe("JsonDepthScanner", () => {
  it("counts nesting per line across pieces, ignoring brackets in strings and escaped quotes", () => {
    expect(scan('{"a":[[1]]}\n{"b":"[[[[\\"[[["}\n', 2, 3)).toBeNull();
    expect(scan('{"a":1}\n{"a":[[[1]]]}\n', 5, 3)).toBe(2);
  });

  it("agrees with rewriteTranscriptLine's limit exactly", () => {
    const line = (n: number) => `${"[".repeat(n - 1)}{"cwd":"/a"}${"]".repeat(n - 1)}`;
    const fits = line(MAX_JSON_DEPTH);
    expect(scan(fits)).toBeNull();
    expect(() => rewriteTranscriptLine(fits, { from: "/a", to: "/b" }, 1)).not.toThrow();
    const over = line(MAX_JSON_DEPTH + 1);
    expect(scan(over)).toBe(1);
    expect(() => rewriteTranscriptLine(over, { from: "/a", to: "/b" }, 1)).toThrow(/more than 1000 deep/);
  });

  it("takes a line 100,000 deep without recursing", () => {
    expect(scan(`{}\n${"[".repeat(100_000)}${"]".repeat(100_000)}\n`, 4096)).toBe(2);
  });
});
