import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CODECS,
  codecFromId,
  codecToId,
  compressPayload,
  compressTranscript,
  decompressPayload,
  decompressTranscript,
  isTranscriptCodec,
  nativeZstdIn,
  TRANSCRIPT_CODEC,
} from "./codecs.ts";

const text = new TextEncoder().encode("the quick brown fox jumps over the lazy dog. ".repeat(2_000));
// Larger than lz4js's 4 MiB block, so the frame holds two blocks, one of them partly incompressible.
const mixed = new Uint8Array(5 * 1024 * 1024);
mixed.set(randomBytes(1024 * 1024), 0);
for (let i = 1024 * 1024; i < mixed.length; i++) mixed[i] = i % 251;

describe("codec ids", () => {
  it("maps names to the ids stored in headers and back", () => {
    expect(CODECS.map(codecToId)).toEqual([0, 1, 2]);
    expect([0, 1, 2].map(codecFromId)).toEqual(["none", "lz4", "zstd"]);
    expect(codecFromId(3)).toBeUndefined();
  });
});

describe.each(CODECS)("codec %s", (codec) => {
  it.each([
    ["empty", new Uint8Array(0)],
    ["text", text],
    ["5 MiB mixed", mixed],
  ])("round-trips %s input", (_name, input) => {
    const packed = compressPayload(codec, input);
    const unpacked = decompressPayload(codec, packed, input.length);
    expect(unpacked.length).toBe(input.length);
    expect(Buffer.from(unpacked).equals(Buffer.from(input))).toBe(true);
  });
});

describe("standard frames", () => {
  it("writes an LZ4 frame (magic 04 22 4d 18) that shrinks text", () => {
    const frame = compressPayload("lz4", text);
    expect(Array.from(frame.subarray(0, 4))).toEqual([0x04, 0x22, 0x4d, 0x18]);
    expect(frame.length).toBeLessThan(text.length / 10);
  });

  it("writes a zstd frame (magic 28 b5 2f fd) with the content size in its header", () => {
    const frame = compressPayload("zstd", text);
    expect(Array.from(frame.subarray(0, 4))).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    // Frame header descriptor: the top two bits give the size of the Frame_Content_Size field (0 = absent
    // unless single-segment). A pledged size sets it, so decoders can allocate exactly once.
    const descriptor = frame[4] ?? 0;
    expect(descriptor >> 6 !== 0 || (descriptor & 0x20) !== 0).toBe(true);
  });
});

describe("corrupt LZ4 frames", () => {
  const frame = compressPayload("lz4", text);

  it("rejects a block size above the frame's block maximum before decoding", () => {
    const bad = frame.slice();
    bad[7] = 0xff; // first block header: size u32 at bytes 7-10
    bad[8] = 0xff;
    bad[9] = 0xff;
    bad[10] = 0x7f;
    expect(() => decompressPayload("lz4", bad, text.length)).toThrow(/claims \d+ bytes, above/);
  });

  it("rejects a frame that is cut short", () => {
    expect(() => decompressPayload("lz4", frame.subarray(0, frame.length - 10), text.length)).toThrow(
      /malformed LZ4 frame/,
    );
  });

  it("rejects trailing bytes after the end mark", () => {
    const longer = new Uint8Array(frame.length + 3);
    longer.set(frame);
    expect(() => decompressPayload("lz4", longer, text.length)).toThrow(/frame ends at byte/);
  });

  it("rejects a wrong frame magic", () => {
    const bad = frame.slice();
    bad[0] = 0;
    expect(() => decompressPayload("lz4", bad, text.length)).toThrow(/bad frame magic/);
  });
});

describe("corrupt zstd frames", () => {
  it("throws instead of returning data for a cut frame", () => {
    const frame = compressPayload("zstd", text);
    expect(() => decompressPayload("zstd", frame.subarray(0, frame.length - 20), text.length)).toThrow();
  });
});

describe("native zstd by Node version (known without loading zlib)", () => {
  it("is there from 22.15 and 23.8 on, and not before", () => {
    for (const version of ["22.15.0", "22.20.1", "23.8.0", "24.0.0", "24.21.0", "25.1.0"]) {
      expect(nativeZstdIn(version), version).toBe(true);
    }
    for (const version of ["20.19.0", "22.3.0", "22.14.9", "23.7.0"])
      expect(nativeZstdIn(version), version).toBe(false);
  });

  it("agrees with the running Node's zlib", () => {
    const zlib = process.getBuiltinModule("node:zlib");
    expect(nativeZstdIn(process.versions.node)).toBe(typeof zlib.zstdCompressSync === "function");
  });
});

describe("team transcripts", () => {
  const zlib = process.getBuiltinModule("node:zlib");

  it("compresses with the codec this Node has (zstd natively, else gzip) and reads it back", () => {
    expect(TRANSCRIPT_CODEC).toBe(nativeZstdIn(process.versions.node) ? "zstd" : "gzip");
    const packed = compressTranscript(text);
    expect(packed.length).toBeLessThan(text.length / 10);
    expect(Buffer.from(decompressTranscript(TRANSCRIPT_CODEC, packed, text.length)).equals(Buffer.from(text))).toBe(
      true,
    );
  });

  it("reads the rows pushed before the codec moved here: gzip and zstd at level 6, no content size", () => {
    const gzip = zlib.gzipSync(text, { level: 6 });
    expect(Buffer.from(decompressTranscript("gzip", gzip, text.length)).equals(Buffer.from(text))).toBe(true);
    const zstd = zlib.zstdCompressSync(text, { params: { [zlib.constants.ZSTD_c_compressionLevel]: 6 } });
    expect(Buffer.from(decompressTranscript("zstd", zstd, text.length)).equals(Buffer.from(text))).toBe(true);
  });

  it("stops at the pushed length (a bomb) and throws on a damaged frame", () => {
    expect(() => decompressTranscript("gzip", zlib.gzipSync(text), 100)).toThrow();
    expect(() => decompressTranscript("zstd", compressPayload("zstd", text), 100)).toThrow();
    expect(() => decompressTranscript("gzip", zlib.gzipSync(text).subarray(0, 50), text.length)).toThrow();
  });

  it("knows only zstd and gzip as transcript codecs (lz4 is the container's)", () => {
    expect(["zstd", "gzip", "lz4", "none", ""].map(isTranscriptCodec)).toEqual([true, true, false, false, false]);
  });
});
