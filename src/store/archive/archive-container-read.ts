// Reading the archive's container as a stream (written by archive-container.ts): the header, the zstd frame
// decompressed a chunk at a time (native zstd, or fzstd fed in small pieces on a Node without it), the msgpack walked
// by the pull reader so each file's bytes go to a sink and never sit in memory whole, and every checksum checked.
// Takes both layouts: { files, meta } (streamed) and { meta, files } (archives written before streaming).
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { decode as decodeMsgpack } from "@msgpack/msgpack";
import { Decompress as FzstdDecompress } from "fzstd";
import { codecToId, nativeZstdIn } from "../files/codecs.ts";
import { CONTAINER_MAGIC, HEADER_BYTES } from "../files/container.ts";
import { checkFormatVersion } from "../files/migrate.ts";
import {
  type FileSink,
  openForArchive,
  PIECE_BYTES,
  type StreamedFile,
  ZSTD_CHUNK_BYTES,
} from "./archive-container.ts";
import { PullError, PullReader } from "./pull-reader.ts";

/** The meta of one session (its file list) is small; more than this is not an archive ctx wrote. */
const MAX_META_BYTES = 16 << 20;
const MAX_PATH_BYTES = 4_096;

export interface ReadContainer {
  /** The decoded meta (unchecked: the caller validates it). */
  meta: unknown;
  /** Each file as read: name, size and SHA-256 (mtimeMs 0: the meta has the times). */
  files: StreamedFile[];
}

/**
 * Reads and checks a container as a stream: its header, every byte's SHA-256 against the header, each file's
 * own SHA-256 (returned for the caller to compare with the meta), handing file bytes to `sink` if given.
 * Any problem is a plain Error saying what (the caller names the archive).
 */
export async function readArchiveContainer(path: string, sink?: FileSink): Promise<ReadContainer> {
  const handle = await openForArchive(path);
  try {
    const size = (await handle.stat()).size;
    const header = new Uint8Array(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    const expected = checkHeader(header.subarray(0, bytesRead), size, path);
    const source = handle.createReadStream({ start: HEADER_BYTES, autoClose: false, highWaterMark: PIECE_BYTES });
    const chunks = decompressed(source, expected.codec);
    const payloadHash = createHash("sha256");
    let payloadBytes = 0;
    const hashed = (async function* () {
      for await (const chunk of chunks) {
        payloadBytes += chunk.length;
        if (payloadBytes > expected.uncompressedBytes) {
          throw new Error(`payload decompresses past the ${expected.uncompressedBytes} bytes its header says`);
        }
        payloadHash.update(chunk);
        yield chunk;
      }
    })();
    try {
      const result = await readPayload(new PullReader(hashed), sink);
      if (payloadBytes !== expected.uncompressedBytes) {
        throw new Error(`payload decompresses to ${payloadBytes} bytes, header says ${expected.uncompressedBytes}`);
      }
      if (!payloadHash.digest().equals(expected.sha256)) {
        throw new Error("checksum mismatch: the payload's SHA-256 differs from the one in the header");
      }
      return result;
    } catch (error) {
      await hashed.return(undefined).catch(() => undefined);
      throw error instanceof PullError ? new Error(`payload: ${error.message}`) : error;
    } finally {
      source.destroy();
    }
  } finally {
    await handle.close();
  }
}

function checkHeader(
  header: Uint8Array,
  fileBytes: number,
  path: string,
): { codec: "zstd" | "none"; uncompressedBytes: number; sha256: Buffer } {
  if (fileBytes === 0) throw new Error("empty file (0 bytes), not a ctx container");
  if (!CONTAINER_MAGIC.every((byte, i) => header[i] === byte)) throw new Error("not a ctx container: wrong magic");
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length >= 6) checkFormatVersion(view.getUint16(4, true), path);
  if (header.length < HEADER_BYTES) {
    throw new Error(`truncated: file has ${header.length} bytes, the header alone is ${HEADER_BYTES}`);
  }
  const codecId = view.getUint8(6);
  const codec = codecId === codecToId("zstd") ? "zstd" : codecId === codecToId("none") ? "none" : null;
  if (codec === null) throw new Error(`codec id ${codecId} is not one the archive writes`);
  if (view.getUint8(7) !== 0) throw new Error(`unknown header flags 0x${view.getUint8(7).toString(16)}`);
  const uncompressedBytes = view.getUint32(8, true);
  const compressedBytes = view.getUint32(12, true);
  const present = fileBytes - HEADER_BYTES;
  if (present < compressedBytes) {
    throw new Error(`truncated: header says ${compressedBytes} payload bytes, file has ${present}`);
  }
  if (present > compressedBytes) {
    throw new Error(`${present - compressedBytes} unexpected bytes after the ${compressedBytes}-byte payload`);
  }
  if (codec === "none" && compressedBytes !== uncompressedBytes) {
    throw new Error(`header lengths disagree for an uncompressed payload: ${uncompressedBytes} vs ${compressedBytes}`);
  }
  return { codec, uncompressedBytes, sha256: Buffer.from(header.subarray(16, HEADER_BYTES)) };
}

/** The payload's bytes as they decompress: native zstd where Node has it, fzstd (fed in small pieces) elsewhere. */
async function* decompressed(source: AsyncIterable<Uint8Array>, codec: "zstd" | "none"): AsyncGenerator<Uint8Array> {
  if (codec === "none") {
    yield* source;
    return;
  }
  const zlib = nativeZstdIn(process.versions.node) ? process.getBuiltinModule("node:zlib") : null;
  if (typeof zlib?.createZstdDecompress === "function") {
    const decompressor = zlib.createZstdDecompress({ chunkSize: ZSTD_CHUNK_BYTES });
    const feeding = pipeline(Readable.from(source), decompressor).catch((error: unknown) => error);
    let failed: unknown;
    try {
      for await (const chunk of decompressor) yield chunk as Uint8Array;
    } catch (error) {
      failed = error;
    }
    const fed = await feeding;
    if (failed !== undefined || fed !== undefined) throw zstdError(failed ?? fed);
    return;
  }
  yield* fzstdChunks(source);
}

/**
 * fzstd's streaming decoder hands out at once all that a pushed piece decodes to, so pieces are small: a few
 * hundred bytes of a frame decode to a few megabytes at most, even where every block repeats one byte.
 */
export async function* fzstdChunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let out: Uint8Array[] = [];
  let ended = false;
  const decoder = new FzstdDecompress((chunk, final) => {
    if (chunk.length > 0) out.push(chunk);
    if (final === true) ended = true;
  });
  const FEED = 512;
  const take = () => {
    const ready = out;
    out = [];
    return ready;
  };
  try {
    for await (const chunk of source) {
      for (let at = 0; at < chunk.length; at += FEED) {
        decoder.push(chunk.subarray(at, at + FEED));
        yield* take();
      }
    }
    decoder.push(new Uint8Array(0), true);
    yield* take();
  } catch (error) {
    throw zstdError(error);
  }
  if (!ended) throw zstdError(new Error("the frame is cut short"));
}

function zstdError(error: unknown): Error {
  return new Error(`zstd payload does not decompress: ${error instanceof Error ? error.message : String(error)}`);
}

/** Walks `{ meta, files }` in either order, each file's bytes to the sink. */
async function readPayload(reader: PullReader, sink: FileSink | undefined): Promise<ReadContainer> {
  let meta: unknown;
  let files: StreamedFile[] | undefined;
  const entries = await reader.mapHeader();
  for (let i = 0; i < entries; i++) {
    const key = await reader.string(64);
    if (key === "meta" && meta === undefined) meta = decodeMsgpack(await reader.rawValue(MAX_META_BYTES));
    else if (key === "files" && files === undefined) files = await readFiles(reader, sink);
    else throw new PullError(`unexpected key "${key}" at the top`);
  }
  if (!(await reader.atEnd())) throw new PullError("bytes after the value");
  if (meta === undefined || files === undefined) throw new PullError("not a session archive (no meta or no files)");
  return { meta, files };
}

async function readFiles(reader: PullReader, sink: FileSink | undefined): Promise<StreamedFile[]> {
  const count = await reader.arrayHeader();
  const files: StreamedFile[] = [];
  for (let i = 0; i < count; i++) {
    const fields = await reader.mapHeader();
    let name: string | undefined;
    let file: StreamedFile | undefined;
    for (let f = 0; f < fields; f++) {
      const key = await reader.string(64);
      if (key === "path" && name === undefined) name = await reader.string(MAX_PATH_BYTES);
      else if (key === "data" && name !== undefined && file === undefined) {
        const bytes = await reader.binHeader();
        const hash = createHash("sha256");
        await sink?.open(name);
        for await (const chunk of reader.stream(bytes)) {
          hash.update(chunk);
          await sink?.write(chunk);
        }
        await sink?.close();
        file = { name, bytes, sha256: hash.digest("hex"), mtimeMs: 0 };
      } else throw new PullError(`unexpected key "${key}" in file ${i}`);
    }
    if (file === undefined) throw new PullError(`file ${i} has no data`);
    files.push(file);
  }
  return files;
}
