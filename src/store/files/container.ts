// The one binary format every ctx file uses: a fixed header, then the msgpack encoding of the value,
// compressed. Decoding verifies everything before returning and never hands back half-decoded data.
//
// Header, 48 bytes, integers little-endian (format version 1):
//   offset  size  field
//        0     4  magic: 0x89 0x43 0x54 0x58 ("\x89CTX"; the high first byte marks it as binary)
//        4     2  format version, u16 (1)
//        6     1  codec id, u8: 0 none, 1 lz4, 2 zstd (see codecs.ts)
//        7     1  flags, u8: must be 0 in version 1
//        8     4  uncompressed payload length in bytes, u32
//       12     4  compressed payload length in bytes, u32 (the file is exactly 48 + this long)
//       16    32  SHA-256 of the uncompressed payload (the msgpack bytes)
//       48     …  compressed payload: a standard LZ4 or zstd frame (or the msgpack bytes for "none"),
//                 so `tail -c +49 file` is the msgpack (codec 0), or piped to `lz4 -d` (1) or `zstd -d` (2).
// Bytes 0-5 (magic and version) keep their place in every future version; the rest may change with it.
import { decode as decodeMsgpack, Encoder } from "@msgpack/msgpack";
import { sha256 } from "../../core/hash/sha256.ts";
import { CtxError, describeError } from "../../errors.ts";
import {
  type Codec,
  codecFromId,
  codecToId,
  compressPayload,
  decompressPayload,
  headerCodec,
  type WriteCodec,
} from "./codecs.ts";
import { CURRENT_FORMAT_VERSION, checkFormatVersion, migratePayload } from "./migrate.ts";

export const CONTAINER_MAGIC = Uint8Array.of(0x89, 0x43, 0x54, 0x58);
export const HEADER_BYTES = 48;
const MAX_U32 = 0xffff_ffff;

export interface DecodedContainer {
  /** The payload, migrated to the current format version. */
  value: unknown;
  /** The version the file was written in (before migration). */
  formatVersion: number;
  codec: Codec;
  uncompressedBytes: number;
}

// `undefined` properties are dropped (as JSON does): msgpack would store nil, which a zod optional rejects.
const encoder = new Encoder({ ignoreUndefined: true });

export function encodeContainer(value: unknown, codec: WriteCodec): Uint8Array {
  const codecId = codecToId(headerCodec(codec));
  if (codecId < 0)
    throw new CtxError("INTERNAL", `unknown codec "${String(codec)}"`, { hint: "Use none, lz4 or zstd." });
  // A view into the encoder's buffer (saves copying megabytes): used up before this function returns.
  const payload = encoder.encodeSharedRef(value);
  const compressed = compressPayload(codec, payload);
  if (payload.length > MAX_U32 || compressed.length > MAX_U32) {
    throw new CtxError("INTERNAL", `container payload of ${payload.length} bytes exceeds the 4 GiB format limit`);
  }
  const out = new Uint8Array(HEADER_BYTES + compressed.length);
  const view = new DataView(out.buffer);
  out.set(CONTAINER_MAGIC, 0);
  view.setUint16(4, CURRENT_FORMAT_VERSION, true);
  view.setUint8(6, codecId);
  view.setUint8(7, 0);
  view.setUint32(8, payload.length, true);
  view.setUint32(12, compressed.length, true);
  out.set(sha256(payload), 16);
  out.set(compressed, HEADER_BYTES);
  return out;
}

/** Verifies and decodes a whole container; any problem is STATE_CORRUPT naming `sourcePath`. */
export function decodeContainer(bytes: Uint8Array, sourcePath: string): DecodedContainer {
  const corrupt = (what: string, cause?: unknown): never => {
    throw new CtxError("STATE_CORRUPT", `${sourcePath}: ${what}`, {
      hint: "The file is damaged. `ctx doctor` lists the damaged files; restore this one from a checkpoint or delete it.",
      cause,
    });
  };
  if (bytes.length === 0) corrupt("empty file (0 bytes), not a ctx container");
  const magicLength = Math.min(bytes.length, CONTAINER_MAGIC.length);
  if (!CONTAINER_MAGIC.subarray(0, magicLength).every((byte, i) => bytes[i] === byte)) {
    corrupt(`not a ctx container: wrong magic bytes ${hex(bytes.subarray(0, 4))} (expected ${hex(CONTAINER_MAGIC)})`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The version comes first: a newer version may lay out the rest of its header differently.
  if (bytes.length >= 6) checkFormatVersion(view.getUint16(4, true), sourcePath);
  if (bytes.length < HEADER_BYTES) {
    corrupt(`truncated: file has ${bytes.length} bytes, the header alone is ${HEADER_BYTES}`);
  }
  const formatVersion = view.getUint16(4, true);
  const codecId = view.getUint8(6);
  const codec = codecFromId(codecId) ?? corrupt(`unknown codec id ${codecId} in the header`);
  const flags = view.getUint8(7);
  if (flags !== 0) corrupt(`unknown header flags 0x${flags.toString(16)} (version ${formatVersion} defines none)`);
  const uncompressedBytes = view.getUint32(8, true);
  const compressedBytes = view.getUint32(12, true);
  const present = bytes.length - HEADER_BYTES;
  if (present < compressedBytes) {
    corrupt(`truncated: header says ${compressedBytes} payload bytes, file has ${present}`);
  }
  if (present > compressedBytes) {
    corrupt(`${present - compressedBytes} unexpected bytes after the ${compressedBytes}-byte payload`);
  }
  if (codec === "none" && compressedBytes !== uncompressedBytes) {
    corrupt(`header lengths disagree for an uncompressed payload: ${uncompressedBytes} vs ${compressedBytes}`);
  }
  let payload: Uint8Array;
  try {
    payload = decompressPayload(codec, bytes.subarray(HEADER_BYTES), uncompressedBytes);
  } catch (error) {
    return corrupt(`${codec} payload does not decompress: ${describeError(error)}`, error);
  }
  if (payload.length !== uncompressedBytes) {
    corrupt(`payload decompresses to ${payload.length} bytes, header says ${uncompressedBytes}`);
  }
  if (!Buffer.from(sha256(payload)).equals(bytes.subarray(16, HEADER_BYTES))) {
    corrupt("checksum mismatch: the payload's SHA-256 differs from the one in the header");
  }
  let decoded: unknown;
  try {
    decoded = decodeMsgpack(payload);
  } catch (error) {
    return corrupt(`payload is not valid msgpack: ${describeError(error)}`, error);
  }
  const value = migratePayload(decoded, formatVersion, sourcePath);
  return { value, formatVersion, codec, uncompressedBytes };
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}
