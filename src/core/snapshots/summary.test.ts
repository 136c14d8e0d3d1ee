import { describe, expect, it } from "vitest";
import { countLines, formatBytes, summarizeState } from "./summary.ts";

describe("countLines", () => {
  it("counts complete lines plus a last one still being written", () => {
    const lines = (text: string) => countLines(new TextEncoder().encode(text));
    expect([lines(""), lines("a"), lines("a\n"), lines("a\nb"), lines("\n\n")]).toEqual([0, 1, 1, 2, 2]);
  });
});

describe("summarizeState", () => {
  it("counts the arrays in the state's first two levels", () => {
    const state = { seq: 1, todos: [1, 2], files: { read: ["a"], written: [] }, deep: { a: { b: [1] } } };
    expect(summarizeState(state)).toEqual({ todos: 2, "files.read": 1, "files.written": 0 });
  });

  it("is empty for anything that is not an object", () => {
    expect([summarizeState([1, 2]), summarizeState(null), summarizeState("text")]).toEqual([{}, {}, {}]);
  });
});

describe("formatBytes", () => {
  it("uses binary units", () => {
    expect([formatBytes(512), formatBytes(1536), formatBytes(500 * 1024 * 1024)]).toEqual([
      "512 B",
      "1.5 KiB",
      "500.0 MiB",
    ]);
  });
});
