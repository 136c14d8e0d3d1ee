import { createHash } from "node:crypto";
import { encode } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { CtxError } from "../../errors.ts";
import { CODECS } from "./codecs.ts";
import { CONTAINER_MAGIC, decodeContainer, encodeContainer, HEADER_BYTES } from "./container.ts";

const PATH = "/tmp/project/.ctx/state.ctx";
const value = {
  files: Array.from({ length: 50 }, (_, i) => ({ path: `src/f${i}.ts`, size: i * 10 })),
  note: "résumé ✓",
  nested: { list: [1, -2, 3.5, null, true] },
};

function expectCorrupt(bytes: Uint8Array, pattern: RegExp, code = "STATE_CORRUPT"): void {
  let caught: unknown;
  try {
    decodeContainer(bytes, PATH);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CtxError);
  expect((caught as CtxError).code).toBe(code);
  expect((caught as CtxError).message).toContain(PATH);
  expect((caught as CtxError).message).toMatch(pattern);
  expect((caught as CtxError).hint).toBeTruthy();
}

function withHeaderByte(bytes: Uint8Array, offset: number, byte: number): Uint8Array {
  const copy = bytes.slice();
  copy[offset] = byte;
  return copy;
}

describe.each(CODECS)("container with codec %s", (codec) => {
  const bytes = encodeContainer(value, codec);

  it("decodes to the value it encoded", () => {
    const decoded = decodeContainer(bytes, PATH);
    expect(decoded).toEqual({ value, formatVersion: 1, codec, uncompressedBytes: encode(value).length });
  });

  it("lays out the header as documented", () => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const payload = encode(value);
    expect(Array.from(bytes.subarray(0, 4))).toEqual(Array.from(CONTAINER_MAGIC));
    expect(view.getUint16(4, true)).toBe(1);
    expect(view.getUint8(6)).toBe(CODECS.indexOf(codec));
    expect(view.getUint8(7)).toBe(0);
    expect(view.getUint32(8, true)).toBe(payload.length);
    expect(view.getUint32(12, true)).toBe(bytes.length - HEADER_BYTES);
    const sha = createHash("sha256").update(payload).digest();
    expect(Buffer.from(bytes.subarray(16, 48)).equals(sha)).toBe(true);
  });

  it("rejects a flipped payload byte", () => {
    const flipped = withHeaderByte(bytes, bytes.length - 5, (bytes[bytes.length - 5] ?? 0) ^ 0x10);
    expectCorrupt(flipped, /checksum mismatch|does not decompress|decompresses to/);
  });

  it("rejects a flipped checksum byte", () => {
    expectCorrupt(withHeaderByte(bytes, 20, (bytes[20] ?? 0) ^ 1), /checksum mismatch/);
  });

  it("rejects a wrong uncompressed length", () => {
    const view = bytes.slice();
    new DataView(view.buffer).setUint32(8, encode(value).length + 1, true);
    expectCorrupt(view, /decompresses to|lengths disagree/);
  });

  it("rejects trailing bytes", () => {
    const longer = new Uint8Array(bytes.length + 2);
    longer.set(bytes);
    expectCorrupt(longer, /2 unexpected bytes after the \d+-byte payload/);
  });
});

describe("header checks", () => {
  const bytes = encodeContainer(value, "lz4");

  it("names both sizes when the payload is truncated", () => {
    const present = bytes.length - HEADER_BYTES - 100;
    expectCorrupt(
      bytes.subarray(0, bytes.length - 100),
      new RegExp(`truncated: header says ${present + 100} payload bytes, file has ${present}`),
    );
  });

  it("reports a file cut inside the header", () => {
    expectCorrupt(bytes.subarray(0, 20), /truncated: file has 20 bytes, the header alone is 48/);
    expectCorrupt(bytes.subarray(0, 3), /truncated: file has 3 bytes/);
  });

  it("reports an empty file", () => {
    expectCorrupt(new Uint8Array(0), /empty file/);
  });

  it("rejects wrong magic bytes, showing them", () => {
    expectCorrupt(new TextEncoder().encode('{"json": "not a container"}'), /wrong magic bytes 7b 22 6a 73/);
  });

  it("rejects a newer format version as unsupported, not corrupt", () => {
    expectCorrupt(
      withHeaderByte(bytes, 4, 2),
      /format version 2, this ctx reads versions up to 1/,
      "STATE_UNSUPPORTED_VERSION",
    );
  });

  it("rejects format version 0", () => {
    expectCorrupt(withHeaderByte(bytes, 4, 0), /format version 0 does not exist/);
  });

  it("rejects an unknown codec id and unknown flags", () => {
    expectCorrupt(withHeaderByte(bytes, 6, 9), /unknown codec id 9/);
    expectCorrupt(withHeaderByte(bytes, 7, 1), /unknown header flags 0x1/);
  });

  it("rejects a payload that is not msgpack even when its checksum matches", () => {
    const junk = Uint8Array.of(0xc1); // 0xc1 is the one byte msgpack never uses
    const out = new Uint8Array(HEADER_BYTES + 1);
    out.set(bytes.subarray(0, HEADER_BYTES));
    const view = new DataView(out.buffer);
    view.setUint8(6, 0);
    view.setUint32(8, 1, true);
    view.setUint32(12, 1, true);
    out.set(createHash("sha256").update(junk).digest(), 16);
    out.set(junk, HEADER_BYTES);
    expectCorrupt(out, /not valid msgpack/);
  });
});

describe("encoding", () => {
  it("drops undefined properties instead of storing nil", () => {
    const decoded = decodeContainer(encodeContainer({ a: 1, b: undefined }, "none"), PATH);
    expect(decoded.value).toEqual({ a: 1 });
    expect(Object.keys(decoded.value as object)).toEqual(["a"]);
  });

  it("is deterministic for lz4 and none", () => {
    for (const codec of ["none", "lz4"] as const) {
      expect(Buffer.from(encodeContainer(value, codec)).equals(encodeContainer(value, codec))).toBe(true);
    }
  });

  it("refuses an unknown codec", () => {
    expect(() => encodeContainer(value, "gzip" as never)).toThrow(/unknown codec "gzip"/);
  });
});
