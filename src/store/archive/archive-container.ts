// The archive's container, written as a stream (read by archive-container-read.ts): memory does not grow with a
// transcript's size. The layout is ctx's container (store/files/container.ts: 48-byte header, then a zstd frame of
// msgpack), so archives written before streaming read the same way. The msgpack is { files: [{ path, data }], meta }
// here (meta last: its checksums are known once the files are read) and { meta, files } in older archives.
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { encode as encodeMsgpack } from "@msgpack/msgpack";
import { CtxError } from "../../errors.ts";
import { codecToId, ZSTD_LEVEL } from "../files/codecs.ts";
import { CONTAINER_MAGIC, HEADER_BYTES } from "../files/container.ts";
import { CURRENT_FORMAT_VERSION } from "../files/migrate.ts";
import { openRegularFile } from "../files/open-regular.ts";

const MAX_U32 = 0xffff_ffff;
/** Files are read in pieces of this size, into one reused buffer. */
export const PIECE_BYTES = 256 * 1024;
/**
 * What zstd hands out at a time. Each is a fresh buffer, garbage once used; small ones keep V8 collecting often
 * (a 2 GB transcript's read-back peaks lower at 16 KiB than at 128 KiB: bench/run.ts archive-memory).
 */
export const ZSTD_CHUNK_BYTES = 16 * 1024;
/** Regular files only, never through a link, never blocking on a FIFO. */

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

/** Opens a file to archive: a regular file, not through a link, without blocking (a FIFO is refused); a missing
 *  file is an ENOENT error like `open`'s. */
export async function openForArchive(path: string): Promise<FileHandle> {
  const handle = await openRegularFile(path, { noFollow: true });
  if (handle !== null) return handle;
  throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT", path });
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
