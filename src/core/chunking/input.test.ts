import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { longestFixtureMessages } from "../../../tests/helpers/fixture-messages.ts";
import {
  isHighSurrogate,
  isLowSurrogate,
  markdownArbitrary,
  scanFences,
} from "../../../tests/helpers/markdown-arbitrary.ts";
import { chunkInput, INPUT_CHUNK_MAX, type InputChunk } from "./input.ts";

/** Every invariant input chunking promises, checked on one input. */
function checkInvariants(text: string, chunks: InputChunk[], max: number): void {
  expect(chunks.map((chunk) => chunk.text).join("")).toBe(text);
  let position = 0;
  for (const [index, chunk] of chunks.entries()) {
    expect(chunk.index).toBe(index);
    expect(chunk.start).toBe(position);
    expect(chunk.end - chunk.start).toBe(chunk.text.length);
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.text.length).toBeLessThanOrEqual(max);
    position = chunk.end;
    if (chunk.end < text.length) {
      const splitsPair = isHighSurrogate(text.charCodeAt(chunk.end - 1)) && isLowSurrogate(text.charCodeAt(chunk.end));
      expect(splitsPair, `chunk ${index} ends inside a surrogate pair`).toBe(false);
    }
  }
  const cuts = chunks.slice(0, -1).map((chunk) => chunk.end);
  for (const block of scanFences(text).blocks) {
    const inside = cuts.filter((cut) => cut > block.start && cut < block.end);
    if (block.end - block.start <= max) expect(inside, "a code block that fits a chunk was split").toEqual([]);
    for (const cut of inside) {
      const chunk = chunks.find((c) => c.end === cut);
      expect(chunk?.continuesCodeBlock).toBe(true);
    }
  }
  for (const chunk of chunks) {
    if (chunk.continuesCodeBlock !== true) continue;
    expect(scanFences(text).blocks.some((b) => chunk.end > b.start && chunk.end < b.end)).toBe(true);
  }
}

describe("chunkInput properties", () => {
  it("join is exact, chunks fit, fitting code blocks stay whole, no surrogate pair is split", () => {
    fc.assert(
      fc.property(markdownArbitrary, fc.integer({ min: 2, max: 400 }), (text, max) => {
        checkInvariants(text, chunkInput(text, { max }), max);
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(markdownArbitrary, fc.integer({ min: 8, max: 300 }), (text, max) => {
        expect(chunkInput(text, { max })).toEqual(chunkInput(text, { max }));
      }),
      { numRuns: 60 },
    );
  });

  it("holds for arbitrary unicode strings too", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.integer({ min: 2, max: 50 }), (text, max) => {
        checkInvariants(text, chunkInput(text, { max }), max);
      }),
      { numRuns: 200 },
    );
  });
});

describe("chunkInput edge cases", () => {
  it("empty input gives no chunks; input exactly at the limit is one chunk, one more character two", () => {
    expect(chunkInput("")).toEqual([]);
    const exact = "word ".repeat(INPUT_CHUNK_MAX / 5);
    expect(chunkInput(exact).map((c) => c.text)).toEqual([exact]);
    const over = `${exact}x`;
    expect(chunkInput(over).map((c) => c.text.length)).toEqual([INPUT_CHUNK_MAX, 1]);
  });

  it("breaks at paragraphs first, then sentences, then words, then characters", () => {
    const text = "First para.\n\nSecond one here. Then more words follow";
    expect(chunkInput(text, { max: 20 }).map((c) => [c.text, c.breakKind])).toEqual([
      ["First para.\n\n", "paragraph"],
      ["Second one here. ", "sentence"],
      ["Then more words ", "word"],
      ["follow", "end"],
    ]);
    expect(chunkInput("a".repeat(25), { max: 10 }).map((c) => [c.text.length, c.breakKind])).toEqual([
      [10, "grapheme"],
      [10, "grapheme"],
      [5, "end"],
    ]);
  });

  it("keeps a heading with the text after it, and a list whole when it fits", () => {
    const text = "Intro line.\n\n## Setup\n\nRun the installer now.\n\n- one\n- two\n- three\n";
    const chunks = chunkInput(text, { max: 40 }).map((c) => c.text);
    expect(chunks).toEqual(["Intro line.\n\n", "## Setup\n\nRun the installer now.\n\n", "- one\n- two\n- three\n"]);
  });

  it("splits one giant code block at line boundaries and says the block continues", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `  line ${i} = compute(${i});`);
    const text = `Before.\n\n~~~~python title=x\n${lines.join("\n")}\n~~~~\nAfter.`;
    const chunks = chunkInput(text, { max: 500 });
    checkInvariants(text, chunks, 500);
    expect(chunks[0]?.text).toBe("Before.\n\n");
    const inner = chunks.slice(1, -1);
    expect(inner.length).toBeGreaterThan(5);
    for (const chunk of inner.slice(0, -1)) {
      expect(chunk.continuesCodeBlock).toBe(true);
      expect(chunk.codeFence).toEqual({ fence: "~~~~", info: "python title=x" });
      expect(chunk.text.endsWith("\n")).toBe(true);
    }
  });

  it("an unclosed fence runs to the end and is protected like a closed one", () => {
    const text = `Para one.\n\n\`\`\`js\nlet a = 1;\n\nlet b = 2;\n`;
    expect(chunkInput(text, { max: 35 }).map((c) => c.text)).toEqual(["Para one.\n\n", text.slice(11)]);
  });

  it("preserves CRLF byte for byte and breaks after the whole line ending", () => {
    const text = "line one\r\nline two\r\n\r\nline three\r\n";
    const chunks = chunkInput(text, { max: 12 });
    expect(chunks.map((c) => c.text).join("")).toBe(text);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.endsWith("\r")).toBe(false);
  });

  it("never cuts inside emoji, ZWJ sequences, flags or combining sequences", () => {
    const family = "👨‍👩‍👧‍👦";
    const combining = "e\u0301\u0302";
    for (const unit of [family, combining, "🇫🇷", "👍🏽"]) {
      const text = unit.repeat(40);
      const chunks = chunkInput(text, { max: 23 });
      expect(chunks.map((c) => c.text).join("")).toBe(text);
      for (const chunk of chunks) expect(chunk.text.length % unit.length).toBe(0);
    }
  });

  it("the real fixtures' longest messages chunk losslessly at the default size", () => {
    const messages = longestFixtureMessages(8);
    expect(messages[0]?.length).toBeGreaterThan(INPUT_CHUNK_MAX);
    for (const text of messages) {
      const chunks = chunkInput(text);
      checkInvariants(text, chunks, INPUT_CHUNK_MAX);
      if (text.length > INPUT_CHUNK_MAX) expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks.slice(0, -1)) expect(["paragraph", "line"]).toContain(chunk.breakKind);
    }
  });

  it("rejects a size below two code units", () => {
    expect(() => chunkInput("abc", { max: 1 })).toThrow(RangeError);
    expect(() => chunkInput("abc", { max: 2.5 })).toThrow(RangeError);
  });
});
