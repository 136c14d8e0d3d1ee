// The conversation rebuilt from the index's chunk text (core/search/chunker.ts's lines), for a transcript that is
// gone: the overlap each chunk carried in an older index left out, split messages joined, tool gists back into calls.
import { describe, expect, it } from "vitest";
import { exchangesFromChunks, withoutOverlap } from "./preview-from-chunks.ts";

describe("exchangesFromChunks", () => {
  it("rebuilds prompts, replies, tools and files across chunks, the overlap read once", () => {
    const tools = "Tools: Read src/parser/p.ts; Edit src/parser/p.ts; Bash: pnpm test -- src/parser/p.test.ts";
    const first = `User: fix the parser\nAssistant: Looking.\n${tools}`;
    const second = `${tools}\nAssistant: Fixed.\nUser: now the docs\nTools: Write docs/p.md`;
    const { exchanges, atFound } = exchangesFromChunks(
      [
        { text: first, lastUuid: "u1" },
        { text: second, lastUuid: "u2" },
      ],
      "u1",
    );
    expect(atFound).toBe(true);
    expect(exchanges.map((e) => [e.prompt, e.replies, e.files, e.matched])).toEqual([
      ["fix the parser", ["Looking.", "Fixed."], ["src/parser/p.ts"], true],
      ["now the docs", [], ["docs/p.md"], false],
    ]);
    expect(exchanges[0]?.tools).toEqual([
      { gist: "Read src/parser/p.ts", count: 1 },
      { gist: "Edit src/parser/p.ts", count: 1 },
      { gist: "Bash: pnpm test -- src/parser/p.test.ts", count: 1 },
    ]);
    expect(exchanges.every((e) => e.uuid === null)).toBe(true);
  });

  it("joins a summary split across chunks (its label repeated, its lines continued) into one exchange", () => {
    const { exchanges } = exchangesFromChunks([
      { text: "User: go\nSummary: part one\nmore of part one", lastUuid: null },
      { text: "Summary: part two\nAssistant: Continuing.", lastUuid: null },
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
  it("drops the lines an old chunk carried from the end of the one before, and nothing else", () => {
    const carried = "Assistant: the end of a long reply that an index written while chunks overlapped carried over";
    expect(withoutOverlap(`User: q\n${carried}`, `${carried}\nUser: next`)).toBe("User: next");
    expect(withoutOverlap("a\nb", "x\ny")).toBe("x\ny");
    expect(withoutOverlap("", "x")).toBe("x");
  });

  it("keeps a new chunk's first lines that merely repeat the last of the chunk before", () => {
    expect(withoutOverlap("User: fix it\nAssistant: done\nUser: go on", "User: go on\nAssistant: ok")).toBe(
      "User: go on\nAssistant: ok",
    );
  });
});
