import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { longestFixtureMessages } from "../../../tests/helpers/fixture-messages.ts";
import {
  isHighSurrogate,
  isLowSurrogate,
  markdownArbitrary,
  scanFences,
} from "../../../tests/helpers/markdown-arbitrary.ts";
import { chunkOutput, OUTPUT_CHUNK_MAX, type OutputChunk } from "./output.ts";

const PREFIX = /^\[(\d+)\/(\d+)\] /;
/** What may be added around a chunk's content: a line break, a reopened fence line; a closing fence line. */
const ADDED_BEFORE = /^(?:\n(?:(?:`{3,}|~{3,})[^\n]*\n)?)?$/;
const ADDED_AFTER = /^(?:\n?(?:`{3,}|~{3,}))?$/;

function checkInvariants(text: string, chunks: OutputChunk[], max: number): void {
  const total = chunks.length;
  let position = 0;
  for (const [index, chunk] of chunks.entries()) {
    expect(chunk.text.length, `chunk ${index + 1} of ${total} is too long`).toBeLessThanOrEqual(max);
    const prefix = PREFIX.exec(chunk.text);
    expect(prefix?.slice(1, 3)).toEqual([String(index + 1), String(total)]);
    expect(chunk.text).toBe(`${prefix?.[0]}${chunk.before}${chunk.content}${chunk.after}`);
    expect(chunk.before).toMatch(ADDED_BEFORE);
    expect(chunk.after).toMatch(ADDED_AFTER);
    expect(chunk.content.length).toBeGreaterThan(0);
    expect(chunk.start).toBe(position);
    position = chunk.end;
    expect(scanFences(chunk.text).open, `chunk ${index + 1} leaves a fence open:\n${chunk.text}`).toBe(false);
    if (chunk.end < text.length) {
      expect(isHighSurrogate(text.charCodeAt(chunk.end - 1)) && isLowSurrogate(text.charCodeAt(chunk.end))).toBe(false);
    }
  }
  // Reassembly: strip each prefix and the added lines around the content, and the input comes back exactly.
  const reassembled = chunks.map((chunk) => {
    const body = chunk.text.replace(PREFIX, "");
    expect(body.startsWith(chunk.before) && body.endsWith(chunk.after)).toBe(true);
    return body.slice(chunk.before.length, body.length - chunk.after.length);
  });
  expect(reassembled.join("")).toBe(text);
}

describe("chunkOutput properties", () => {
  it("every message fits with its prefix, balances its fences, and the content reassembles exactly", () => {
    fc.assert(
      fc.property(markdownArbitrary, fc.integer({ min: 64, max: 400 }), (text, max) => {
        checkInvariants(text, chunkOutput(text, { max }), max);
      }),
      { numRuns: 300 },
    );
  });

  it("N is exact when the count crosses a digit boundary", () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 120 }), (words) => {
        const text = "lorem ipsum dolor sit amet. ".repeat(words * 3);
        const chunks = chunkOutput(text, { max: 64 });
        checkInvariants(text, chunks, 64);
      }),
      { numRuns: 30 },
    );
  });
});

describe("chunkOutput edge cases", () => {
  it("short text is one message [1/1]; empty text none", () => {
    expect(chunkOutput("")).toEqual([]);
    expect(chunkOutput("hello").map((c) => c.text)).toEqual(["[1/1] hello"]);
  });

  it("text exactly filling a message with its prefix stays one message", () => {
    const text = "x".repeat(OUTPUT_CHUNK_MAX - "[1/1] ".length);
    expect(chunkOutput(text).map((c) => c.text.length)).toEqual([OUTPUT_CHUNK_MAX]);
    expect(chunkOutput(`${text}x`)).toHaveLength(2);
  });

  it("closes a code block at the end of a message and reopens it with the same fence and info string", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `value_${i} = compute(${i})`);
    const text = `Here is the script:\n\n~~~~python title=run.py\n${lines.join("\n")}\n~~~~\n\nDone.`;
    const chunks = chunkOutput(text, { max: 300 });
    checkInvariants(text, chunks, 300);
    expect(chunks[0]?.text).toBe(`[1/${chunks.length}] Here is the script:\n\n`);
    const inside = chunks.slice(1, -1);
    for (const chunk of inside.slice(1)) expect(chunk.before).toBe("\n~~~~python title=run.py\n");
    for (const chunk of inside.slice(0, -1)) expect(chunk.after).toBe("~~~~");
  });

  it("a message starting with line-start syntax puts it on its own line after the prefix", () => {
    const text = `Intro paragraph that is long enough.\n\n# Heading\n\nBody text under it.`;
    const chunks = chunkOutput(text, { max: 64 });
    expect(chunks.map((c) => c.text)).toEqual([
      "[1/2] Intro paragraph that is long enough.\n\n",
      "[2/2] \n# Heading\n\nBody text under it.",
    ]);
  });

  it("an unclosed fence at the end is closed in the message", () => {
    const chunks = chunkOutput("Look:\n```sh\nls -la");
    expect(chunks.map((c) => c.text)).toEqual(["[1/1] Look:\n```sh\nls -la\n```"]);
  });

  it("the real fixtures' longest messages chunk within 3,500 characters with balanced fences", () => {
    for (const text of longestFixtureMessages(8)) checkInvariants(text, chunkOutput(text), OUTPUT_CHUNK_MAX);
  });

  it("rejects a message size too small for a prefix and a fence", () => {
    expect(() => chunkOutput("abc", { max: 10 })).toThrow(RangeError);
  });
});
