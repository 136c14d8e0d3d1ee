// Payload compression for the container: the codec names and ids stored in file headers, and the
// compressors behind them. Both produce standard frames (`lz4 -d` / `zstd -d` decode a cut-out payload):
// LZ4 frames from lz4js; zstd frames written by node:zlib (level 19 for archives, level 1 on hook paths) and
// read by node:zlib, or by fzstd on a Node without native zstd (before 22.15). Also the team server's transcript
// codecs (zstd, or gzip on such a Node), which are not container codecs: no header names them.
import { decompress as decompressZstdFrame } from "fzstd";
import * as lz4 from "lz4js";
import { hash as xxh32 } from "lz4js/xxh32.js";
import { CtxError } from "../../errors.ts";

/** Codec names in id order: the index is the id stored in the container header. */
export const CODECS = ["none", "lz4", "zstd"] as const;
export type Codec = (typeof CODECS)[number];

/** zstd level for archival files (snapshots): about 20% smaller than level 3, far slower; never on a hook's hot path. */
export const ZSTD_LEVEL = 19;
/** zstd level on hook paths: native zstd-1 compresses several times faster than lz4js, and about twice as small. */
export const FAST_ZSTD_LEVEL = 1;

/** What a writer asks for: a header codec, or `zstd-fast` (zstd at FAST_ZSTD_LEVEL; the header says zstd). */
export type WriteCodec = Codec | "zstd-fast";

/** node:zlib, loaded when a zstd frame is written or read, not with this module: a hook process that reads and writes
 *  only uncompressed files (SessionStart's sessions file and injection) then never pays for it (bench/run.ts hooks,
 *  builtinCostMs). */
const zlib = (): typeof import("node:zlib") => process.getBuiltinModule("node:zlib");

/** Node's native zstd (22.15+): the hot codec's choice, and the faster decoder. Known from the version, so that
 *  asking loads nothing (zlib's zstd functions arrived in 22.15 and 23.8). */
const NATIVE_ZSTD = nativeZstdIn(process.versions.node);

export function nativeZstdIn(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  return major > 23 || (major === 23 && minor >= 8) || (major === 22 && minor >= 15);
}

/** The codec for files written on hook paths: zstd-fast where Node has native zstd (22.15+), else LZ4. */
export const HOT_CODEC: WriteCodec = NATIVE_ZSTD ? "zstd-fast" : "lz4";

/** The codec a file written with `codec` says in its header. */
export function headerCodec(codec: WriteCodec): Codec {
  return codec === "zstd-fast" ? "zstd" : codec;
}

export function codecToId(codec: Codec): number {
  return CODECS.indexOf(codec);
}

export function codecFromId(id: number): Codec | undefined {
  return CODECS[id];
}

export function compressPayload(codec: WriteCodec, data: Uint8Array): Uint8Array {
  switch (codec) {
    case "none":
      return data;
    case "lz4":
      return lz4.compress(data);
    case "zstd":
      return compressZstd(data, ZSTD_LEVEL);
    case "zstd-fast":
      return compressZstd(data, FAST_ZSTD_LEVEL);
  }
}

/**
 * Decompresses one frame; throws a plain Error on a malformed frame (the container adds the file path).
 * The result is not length-checked here: the container compares it with its header and checksum.
 */
export function decompressPayload(codec: Codec, data: Uint8Array, expectedLength: number): Uint8Array {
  switch (codec) {
    case "none":
      return data;
    case "lz4":
      checkLz4FrameLayout(data);
      return lz4.decompress(data, expectedLength);
    case "zstd": {
      // Native where Node has it (faster than fzstd: bench/run.ts store, zlibZstdMs against fzstdMs), bounded by the
      // header's length against bombs.
      // A plain Uint8Array view either way: values decoded from it then look the same whichever decoder ran.
      const native = NATIVE_ZSTD ? zlib() : null;
      if (typeof native?.zstdDecompressSync !== "function") return decompressZstdFrame(data);
      const out = native.zstdDecompressSync(data, { maxOutputLength: Math.max(1, expectedLength) });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    }
  }
}

/**
 * The codecs of a transcript pushed to the team server (the `codec` column of ctx_team.transcripts): zstd where Node
 * has it natively, else gzip. Never a container codec: CODECS is what a file header may name.
 */
export type TranscriptCodec = "zstd" | "gzip";

/** What the pusher writes: zstd where this Node has it (22.15+ / 23.8+), else gzip. */
export const TRANSCRIPT_CODEC: TranscriptCodec = NATIVE_ZSTD ? "zstd" : "gzip";

/** The level of both: a push compresses every transcript it sends, beside the server's writes (bench/run.ts team-push). */
const TRANSCRIPT_LEVEL = 6;

export function compressTranscript(data: Uint8Array): Uint8Array {
  return TRANSCRIPT_CODEC === "zstd"
    ? compressZstd(data, TRANSCRIPT_LEVEL)
    : zlib().gzipSync(data, { level: TRANSCRIPT_LEVEL });
}

export function isTranscriptCodec(codec: string): codec is TranscriptCodec {
  return codec === "zstd" || codec === "gzip";
}

/**
 * Decompresses a pushed transcript, bounded by the length it was pushed with (a bomb stops there). Throws a plain
 * Error on a malformed frame; the caller checks the length and digest.
 */
export function decompressTranscript(codec: TranscriptCodec, data: Uint8Array, expectedLength: number): Uint8Array {
  if (codec === "zstd") return decompressPayload("zstd", data, expectedLength);
  const out = zlib().gunzipSync(data, { maxOutputLength: Math.max(1, expectedLength) });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

function compressZstd(data: Uint8Array, level: number): Uint8Array {
  // zstdCompressSync arrived in Node 22.15; engines allows 22.0, so say what is missing instead of a TypeError.
  const { constants, zstdCompressSync } = zlib();
  if (typeof zstdCompressSync !== "function") {
    throw new CtxError("INTERNAL", `zstd compression needs Node >= 22.15 (running ${process.versions.node})`, {
      hint: "Upgrade Node, or write this file with the lz4 codec.",
    });
  }
  return zstdCompressSync(data, {
    params: { [constants.ZSTD_c_compressionLevel]: level },
    // Puts the content size in the frame header, so decoders can size their output exactly.
    pledgedSrcSize: data.length,
  });
}

const LZ4_MAGIC = 0x184d2204;
const LZ4_BLOCK_MAX: Record<number, number> = { 4: 0x10000, 5: 0x40000, 6: 0x100000, 7: 0x400000 };

/**
 * Walks an LZ4 frame's block headers before lz4js sees it. lz4js trusts block sizes, so a flipped bit
 * in one can send it through billions of iterations; this check keeps a corrupt file a quick error.
 */
function checkLz4FrameLayout(frame: Uint8Array): void {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const fail = (what: string): never => {
    throw new Error(`malformed LZ4 frame: ${what}`);
  };
  if (frame.length < 7 || view.getUint32(0, true) !== LZ4_MAGIC) fail("bad frame magic");
  const flags = view.getUint8(4);
  const blockDescriptor = view.getUint8(5);
  if ((flags & 0xc0) !== 0x40) fail("unsupported frame version");
  if ((flags & 0x02) !== 0 || (blockDescriptor & 0x8f) !== 0) fail("reserved descriptor bits are set");
  if ((flags & 0x01) !== 0) fail("dictionary frames are not supported");
  const blockMax = LZ4_BLOCK_MAX[(blockDescriptor >> 4) & 7] ?? fail("bad block size id");
  const hasBlockChecksum = (flags & 0x10) !== 0;
  const hasContentChecksum = (flags & 0x04) !== 0;
  const descriptorEnd = 6 + ((flags & 0x08) !== 0 ? 8 : 0);
  if (frame.length <= descriptorEnd) fail("frame descriptor cut off");
  if (((xxh32(0, frame, 4, descriptorEnd - 4) >> 8) & 0xff) !== frame[descriptorEnd]) {
    fail("frame descriptor checksum mismatch");
  }
  let at = descriptorEnd + 1;
  for (;;) {
    const blockStart = at;
    if (blockStart + 4 > frame.length) fail(`block header cut off at byte ${blockStart}`);
    const word = view.getUint32(blockStart, true);
    if (word === 0) break;
    const size = word & 0x7fffffff;
    if (size > blockMax) fail(`block at byte ${blockStart} claims ${size} bytes, above the frame's ${blockMax}`);
    at = blockStart + 4 + size + (hasBlockChecksum ? 4 : 0);
    if (at > frame.length) fail(`block at byte ${blockStart} runs past the end of the frame`);
  }
  at += 4;
  if (hasContentChecksum) at += 4;
  if (at !== frame.length) fail(`frame ends at byte ${at} but the payload has ${frame.length} bytes`);
}
