// The conversation rebuilt from the index's chunk text (core/search/chunker.ts's lines), for a transcript that is
// gone: the overlap each chunk carries left out, split messages joined, tool gists back into calls.
import { describe, expect, it } from "vitest";
import { exchangesFromChunks, withoutOverlap } from "./preview-from-chunks.ts";

describe("exchangesFromChunks", () => {
  it("rebuilds prompts, replies, tools and files across chunks, the overlap read once", () => {
    const first = "User: fix the parser\nAssistant: Looking.\nTools: Read src/p.ts; Edit src/p.ts; Bash: pnpm test";
    const second =
      "Tools: Read src/p.ts; Edit src/p.ts; Bash: pnpm test\nAssistant: Fixed.\nUser: now the docs\nTools: Write docs/p.md";
    const { exchanges, atFound } = exchangesFromChunks(
      [
        { text: first, lastUuid: "u1" },
        { text: second, lastUuid: "u2" },
      ],
      "u1",
    );
    expect(atFound).toBe(true);
    expect(exchanges.map((e) => [e.prompt, e.replies, e.files, e.matched])).toEqual([
      ["fix the parser", ["Looking.", "Fixed."], ["src/p.ts"], true],
      ["now the docs", [], ["docs/p.md"], false],
    ]);
    expect(exchanges[0]?.tools).toEqual([
      { gist: "Read src/p.ts", count: 1 },
      { gist: "Edit src/p.ts", count: 1 },
      { gist: "Bash: pnpm test", count: 1 },
    ]);
    expect(exchanges.every((e) => e.uuid === null)).toBe(true);
  });

  it("joins a summary split across chunks (its label repeated, its lines continued) into one exchange", () => {
    const { exchanges } = exchangesFromChunks([
      { text: "User: go\nSummary: part one\nmore of one", lastUuid: null },
      { text: "more of one\nSummary: part two\nAssistant: Continuing.", lastUuid: null },
    ]);
    expect(exchanges.map((e) => e.prompt)).toEqual(["go", "(compaction summary)"]);
    expect(exchanges[1]?.replies).toEqual(["Continuing."]);
  });

  it("says --at was not found when no chunk ended there, and copes with no chunks", () => {
    expect(exchangesFromChunks([{ text: "User: a", lastUuid: "u1" }], "other").atFound).toBe(false);
    expect(exchangesFromChunks([])).toEqual({ exchanges: [], atFound: null });
  });
});

describe("withoutOverlap", () => {
  it("drops the lines a chunk repeats from the end of the one before, and nothing else", () => {
    expect(withoutOverlap("a\nb\nc", "b\nc\nd")).toBe("d");
    expect(withoutOverlap("a\nb", "x\ny")).toBe("x\ny");
    expect(withoutOverlap("", "x")).toBe("x");
  });
});
