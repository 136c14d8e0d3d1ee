// The archive's container, written and read as a stream: memory does not grow with a transcript's size. The
// layout is ctx's container (store/files/container.ts: 48-byte header, then a zstd frame of msgpack), so archives
// written before streaming read the same way. The msgpack is { files: [{ path, data }], meta } here (meta last:
// its checksums are known once the files are read) and { meta, files } in older archives; readers take either.
import { createHash } from "node:crypto";
import { constants, type FileHandle, open } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { decode as decodeMsgpack, encode as encodeMsgpack } from "@msgpack/msgpack";
import { Decompress as FzstdDecompress } from "fzstd";
import { CtxError } from "../../errors.ts";
import { codecToId, nativeZstdIn, ZSTD_LEVEL } from "../files/codecs.ts";
import { CONTAINER_MAGIC, HEADER_BYTES } from "../files/container.ts";
import { CURRENT_FORMAT_VERSION, checkFormatVersion } from "../files/migrate.ts";
import { PullError, PullReader } from "./pull-reader.ts";

const MAX_U32 = 0xffff_ffff;
/** Files are read in pieces of this size, into one reused buffer. */
const PIECE_BYTES = 256 * 1024;
/**
 * What zstd hands out at a time. Each is a fresh buffer, garbage once used; small ones keep V8 collecting often
 * (a 2 GB transcript's read-back peaks ~95 MiB at 16 KiB, ~150 MiB at 128 KiB; and ~3x the time).
 */
const ZSTD_CHUNK_BYTES = 16 * 1024;
/** The meta of one session (its file list) is small; more than this is not an archive ctx wrote. */
const MAX_META_BYTES = 16 << 20;
const MAX_PATH_BYTES = 4_096;
/** Regular files only, never through a link, never blocking on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface FileToArchive {
  /** The name stored in the container (relative to Claude Code's folder, `/`-separated). */
  name: string;
  /** Where it is read from. */
  path: string;
  /** Its size when listed: sizes the compressor's tables (what it holds as it is read is checked then). */
  bytes: number;
}

export interface StreamedFile {
  name: string;
  bytes: number;
  sha256: string;
  mtimeMs: number;
}

/** Where a reader sends each file's bytes (nothing is kept when there is no sink). */
export interface FileSink {
  open(name: string): Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/**
 * Writes the container to `handle` (an empty file): every file streamed through SHA-256 and zstd, then the meta
 * `finish` makes from what was read, then the header. A file that changes size or time while read is a CONFLICT.
 */
export async function writeArchiveContainer(
  handle: FileHandle,
  files: readonly FileToArchive[],
  finish: (streamed: StreamedFile[]) => unknown,
): Promise<void> {
  const zlib = process.getBuiltinModule("node:zlib");
  if (typeof zlib.createZstdCompress !== "function") {
    throw new CtxError("INTERNAL", `archiving needs zstd, in Node >= 22.15 (running ${process.versions.node})`, {
      hint: "Upgrade Node to archive transcripts; archives already written still restore.",
    });
  }
  const compressor = zlib.createZstdCompress({
    params: compressionParams(
      zlib.constants,
      files.reduce((sum, file) => sum + file.bytes, 0),
    ),
    chunkSize: ZSTD_CHUNK_BYTES,
  });
  // Not handle.createWriteStream: with autoClose off it never reports the end to pipeline.
  let compressedBytes = 0;
  const out = new Writable({
    highWaterMark: PIECE_BYTES,
    write(chunk: Buffer, _encoding, done) {
      writeFully(handle, chunk, HEADER_BYTES + compressedBytes).then(() => {
        compressedBytes += chunk.length;
        done();
      }, done);
    },
  });
  const writing = pipeline(compressor, out);
  writing.catch(() => undefined);
  // One piece in flight: a write's callback comes once zstd has taken the piece in, so the reader can reuse its
  // buffer (gigabytes of fresh buffers would sit as garbage until V8 collects them, tens of MiB at a time).
  const compress = (piece: Uint8Array) =>
    new Promise<void>((resolve, reject) => compressor.write(piece, (error) => (error ? reject(error) : resolve())));
  const payloadHash = createHash("sha256");
  let payloadBytes = 0;
  try {
    for await (const piece of payload(files, finish)) {
      payloadHash.update(piece);
      payloadBytes += piece.length;
      if (payloadBytes > MAX_U32) throw tooLarge(payloadBytes);
      await compress(piece);
    }
    compressor.end();
  } catch (error) {
    compressor.destroy();
    throw error;
  }
  await writing;
  if (compressedBytes > MAX_U32) throw tooLarge(compressedBytes);
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  header.set(CONTAINER_MAGIC, 0);
  view.setUint16(4, CURRENT_FORMAT_VERSION, true);
  view.setUint8(6, codecToId("zstd"));
  view.setUint8(7, 0);
  view.setUint32(8, payloadBytes, true);
  view.setUint32(12, compressedBytes, true);
  header.set(payloadHash.digest(), 16);
  await writeFully(handle, header, 0);
}

/**
 * zstd level 19 with its tables sized for the input and capped: alone, level 19 streams with an 8 MiB window and
 * about 90 MiB of match tables whatever the size. Capped at a 4 MiB window and 24 MiB of tables (transcripts
 * compress 10:1 or better either way), and a small session gets small tables (fast, like a one-shot call).
 */
function compressionParams(
  constants: typeof import("node:zlib").constants,
  totalBytes: number,
): Record<number, number> {
  const windowLog = Math.min(22, Math.max(10, Math.ceil(Math.log2(totalBytes + 1024))));
  return {
    [constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL,
    [constants.ZSTD_c_windowLog]: windowLog,
    [constants.ZSTD_c_chainLog]: Math.min(22, windowLog + 1),
    [constants.ZSTD_c_hashLog]: Math.min(21, windowLog),
  };
}

/** The msgpack bytes, piece by piece: `{ files: [{ path, data: bin32 }], meta }`. A piece is valid until the next. */
async function* payload(
  files: readonly FileToArchive[],
  finish: (streamed: StreamedFile[]) => unknown,
): AsyncGenerator<Uint8Array> {
  yield Uint8Array.of(0x82);
  yield encodeMsgpack("files");
  yield withU32(0xdd, files.length);
  const streamed: StreamedFile[] = [];
  for (const file of files) {
    yield Uint8Array.of(0x82);
    yield encodeMsgpack("path");
    yield encodeMsgpack(file.name);
    yield encodeMsgpack("data");
    const handle = await openForArchive(file.path);
    try {
      const before = await handle.stat();
      if (before.size > MAX_U32) throw tooLarge(before.size);
      yield withU32(0xc6, before.size);
      const hash = createHash("sha256");
      let read = 0;
      // Reused: each piece is compressed before the next is read (see writeArchiveContainer).
      const buffer = Buffer.allocUnsafe(Math.min(PIECE_BYTES, before.size));
      while (read < before.size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, before.size - read), read);
        if (bytesRead === 0) break;
        const piece = buffer.subarray(0, bytesRead);
        hash.update(piece);
        read += bytesRead;
        yield piece;
      }
      const after = await handle.stat();
      if (read !== before.size || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
        throw new CtxError("CONFLICT", `${file.path} changed while it was archived`, {
          hint: "the session is in use again; the next archive pass takes it",
        });
      }
      streamed.push({ name: file.name, bytes: read, sha256: hash.digest("hex"), mtimeMs: before.mtimeMs });
    } finally {
      await handle.close();
    }
  }
  yield encodeMsgpack("meta");
  yield encodeMsgpack(finish(streamed), { ignoreUndefined: true });
}

/** Opens a file to archive: a regular file, not through a link, without blocking (a FIFO is refused). */
export async function openForArchive(path: string): Promise<FileHandle> {
  const handle = await open(path, READ_FLAGS).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ELOOP") throw notRegular(path);
    throw error;
  });
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!info.isFile()) {
    await handle.close();
    throw notRegular(path);
  }
  return handle;
}

function notRegular(path: string): CtxError {
  return new CtxError("UNSAFE_PATH", `${path} is not a regular file`, {
    hint: "only regular files are archived; links, FIFOs and devices are passed over",
  });
}

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

async function writeFully(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  let at = 0;
  while (at < data.length) {
    const { bytesWritten } = await handle.write(data, at, data.length - at, position + at);
    at += bytesWritten;
  }
}

function withU32(type: number, value: number): Uint8Array {
  const out = new Uint8Array(5);
  out[0] = type;
  new DataView(out.buffer).setUint32(1, value);
  return out;
}

function tooLarge(bytes: number): CtxError {
  return new CtxError("INTERNAL", `${bytes} bytes is over the archive container's 4 GiB limit`, {
    hint: "lower archive.maxTranscriptMegabytes so a session this large is skipped",
  });
}
