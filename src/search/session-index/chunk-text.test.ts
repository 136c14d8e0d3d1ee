import { randomBytes } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkTextToPack, packChunkText, packChunkTextBytes, unpackChunkText } from "./chunk-text.ts";

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
