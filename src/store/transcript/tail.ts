// The context reading from a transcript's END: a bounded read that grows geometrically (64 KiB, x4, up
// to 16 MiB) only while the tail holds no usable reply or boundary, so the cost follows the last few lines,
// not the transcript's size. Synchronous on purpose: it runs after every tool call, and the first
// asynchronous fs call of a process starts libuv's thread pool (several milliseconds).
import { closeSync, fstatSync, readSync } from "node:fs";
import { type ContextReading, readContextFromTail } from "../../core/guard/tokens.ts";
import { openRegularFileSync } from "../files/safe-path.ts";

export const TAIL_INITIAL_BYTES = 64 * 1024;
export const TAIL_MAX_BYTES = 16 * 1024 * 1024;

export interface TailReading {
  /** null when the transcript is missing, or holds no usage within the bytes read. */
  reading: ContextReading | null;
  fileSize: number | null;
  scannedBytes: number;
}

export interface TailOptions {
  initialBytes?: number;
  maxBytes?: number;
  /** Read as if the file ended here (a byte offset): the reading of a reply that later lines have followed. */
  endOffset?: number;
}

export function readContextTail(path: string, options: TailOptions = {}): TailReading {
  let fd: number | null;
  try {
    fd = openRegularFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") {
      return { reading: null, fileSize: null, scannedBytes: 0 };
    }
    throw error;
  }
  if (fd === null) return { reading: null, fileSize: null, scannedBytes: 0 };
  try {
    const size = Math.min(fstatSync(fd).size, options.endOffset ?? Number.POSITIVE_INFINITY);
    const maxBytes = options.maxBytes ?? TAIL_MAX_BYTES;
    let want = Math.min(size, options.initialBytes ?? TAIL_INITIAL_BYTES);
    for (;;) {
      const start = size - want;
      const buffer = Buffer.allocUnsafe(want);
      let filled = 0;
      while (filled < want) {
        const n = readSync(fd, buffer, filled, want - filled, start + filled);
        if (n === 0) break;
        filled += n;
      }
      const reading = readContextFromTail(buffer.toString("utf8", 0, filled), start === 0);
      if (reading !== null || start === 0 || want >= maxBytes) return { reading, fileSize: size, scannedBytes: want };
      want = Math.min(size, maxBytes, want * 4);
    }
  } finally {
    closeSync(fd);
  }
}
