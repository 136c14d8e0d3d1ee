import { createHash, randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chunkTextToPack,
  dictionaryIdOf,
  packChunkText,
  packChunkTextBytes,
  type TextDictionary,
  unpackChunkText,
} from "./chunk-text.ts";

describe("chunk text storage", () => {
  it("stores a long text deflated, smaller, and reads it back exactly", () => {
    const text = `User: why does the café build fail? 🚀\n${"Assistant: the lockfile pins an old tsup; ".repeat(40)}`;
    const packed = packChunkText(text);
    expect(packed).toBeInstanceOf(Uint8Array);
    expect((packed as Uint8Array).length).toBeLessThan(Buffer.byteLength(text) / 4);
    expect(unpackChunkText(packed)).toBe(text);
  });

  it("keeps short text plain, and reads plain text and NULL as they are", () => {
    expect(packChunkText("User: hi")).toBe("User: hi");
    const noise = randomBytes(600).toString("base64");
    expect(unpackChunkText(packChunkText(noise))).toBe(noise);
    expect(unpackChunkText("plain")).toBe("plain");
    expect(unpackChunkText(null)).toBe("");
  });

  it("round-trips any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 2_000 }), fc.integer({ min: 1, max: 5 }), (text, times) => {
        const repeated = text.repeat(times);
        expect(unpackChunkText(packChunkText(repeated))).toBe(repeated);
        // Packed in two halves (a worker thread's and the main thread's), it is stored the same.
        const packed = packChunkTextBytes(chunkTextToPack(repeated));
        expect(packed).toEqual(packChunkText(repeated));
        // zlib's own output buffers give the same bytes.
        if (packed instanceof Uint8Array) expect(packed.subarray(1)).toEqual(new Uint8Array(deflateRawSync(repeated)));
      }),
    );
  });

  it("a damaged or unknown stored value is INDEX_CORRUPT with the reindex hint", () => {
    for (const value of [Uint8Array.from([1, 0xff, 0xff, 0xff]), Uint8Array.from([9, 1, 2]), 42]) {
      expect(() => unpackChunkText(value)).toThrow(expect.objectContaining({ code: "INDEX_CORRUPT" }));
    }
  });
});

describe("chunk text with the index's dictionary (format 2)", () => {
  const dictionaryOf = (text: string): TextDictionary => {
    const bytes = new TextEncoder().encode(text);
    return { bytes, id: createHash("sha256").update(bytes).digest().subarray(0, 4) };
  };
  const dictionary = dictionaryOf(
    "User: why does the build fail? Assistant: the lockfile pins an old tsup. Tools: Bash: pnpm install ".repeat(30),
  );

  it("stores text deflated with the dictionary, smaller than alone, named by its id, and reads it back", () => {
    const text = `User: why does the build fail again?\nAssistant: the lockfile pins an old tsup; ${randomBytes(90).toString("hex")}`;
    const alone = packChunkText(text) as Uint8Array;
    const packed = packChunkText(text, dictionary) as Uint8Array;
    expect(packed[0]).toBe(2);
    expect([...(dictionaryIdOf(packed) ?? [])]).toEqual([...dictionary.id]);
    expect(packed.length).toBeLessThan(alone.length);
    expect(unpackChunkText(packed, dictionary)).toBe(text);
    // Packed in two halves it is stored the same.
    expect(packChunkTextBytes(chunkTextToPack(text), dictionary)).toEqual(packed);
  });

  it("round-trips any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 2_000 }), fc.integer({ min: 1, max: 5 }), (text, times) => {
        const repeated = text.repeat(times);
        expect(unpackChunkText(packChunkText(repeated, dictionary), dictionary)).toBe(repeated);
      }),
    );
  });

  it("read without its dictionary, with another one or cut short, it is INDEX_CORRUPT, never other text", () => {
    const packed = packChunkText("Assistant: the lockfile pins an old tsup. ".repeat(20), dictionary) as Uint8Array;
    const other = dictionaryOf("something else entirely ".repeat(50));
    for (const [value, used] of [
      [packed, null],
      [packed, other],
      [packed.subarray(0, 3), dictionary],
      [Uint8Array.from([...packed.subarray(0, 5), 0xff, 0xff, 0xff]), dictionary],
    ] as const) {
      expect(() => unpackChunkText(value, used)).toThrow(
        expect.objectContaining({ code: "INDEX_CORRUPT", hint: "run `ctx reindex`" }),
      );
    }
  });
});
