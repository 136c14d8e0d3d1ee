import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { readContextTail, TAIL_INITIAL_BYTES } from "./tail.ts";

const LONG = readFileSync(FIXTURE.long);

describe("readContextTail", () => {
  it("reads only the tail of a large transcript: the same figure, the same bytes at 1x and 20x the size", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-tail-"));
    const path = join(dir, "s.jsonl");
    writeFileSync(path, LONG);
    const once = readContextTail(path);
    for (let i = 0; i < 19; i++) appendFileSync(path, LONG);
    const many = readContextTail(path);
    expect(once.reading?.usedTokens).toBe(106_060);
    expect(many.reading?.usedTokens).toBe(106_060);
    expect(many.fileSize).toBe(LONG.length * 20);
    expect(many.scannedBytes).toBe(once.scannedBytes);
    expect(many.scannedBytes).toBeLessThanOrEqual(TAIL_INITIAL_BYTES);
  });

  it("grows the window past a long tool result, up to the cap", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-tail-"));
    const path = join(dir, "s.jsonl");
    const bulky = `${JSON.stringify({ type: "user", uuid: "u", message: { role: "user", content: "x".repeat(300_000) } })}\n`;
    writeFileSync(path, Buffer.concat([LONG, Buffer.from(bulky)]));
    const grown = readContextTail(path);
    expect(grown.reading?.usedTokens).toBe(106_060);
    expect(grown.scannedBytes).toBe(TAIL_INITIAL_BYTES * 16);
    const capped = readContextTail(path, { maxBytes: 128 * 1024 });
    expect(capped).toMatchObject({ reading: null, scannedBytes: 128 * 1024 });
  });

  it("with endOffset, reads as if the file ended there: the reply before the lines that followed it", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-tail-"));
    const path = join(dir, "s.jsonl");
    const later = JSON.stringify({
      type: "assistant",
      uuid: "later",
      message: {
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: "later" }],
        usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 150_000, output_tokens: 5 },
      },
    });
    writeFileSync(path, Buffer.concat([LONG, Buffer.from(`${later}\n`)]));
    expect(readContextTail(path).reading?.usedTokens).toBe(150_003);
    expect(readContextTail(path, { endOffset: LONG.length })).toMatchObject({
      reading: { usedTokens: 106_060 },
      fileSize: LONG.length,
    });
  });

  it("a missing transcript, an empty one", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-tail-"));
    expect(readContextTail(join(dir, "none.jsonl"))).toEqual({ reading: null, fileSize: null, scannedBytes: 0 });
    writeFileSync(join(dir, "empty.jsonl"), "");
    expect(readContextTail(join(dir, "empty.jsonl"))).toEqual({ reading: null, fileSize: 0, scannedBytes: 0 });
  });
});
