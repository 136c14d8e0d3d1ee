// How chunks.text is stored: most of the index's bytes are chunk text (kept for passages, snippets and vectors),
// so a chunk's text is stored deflated when that is smaller: a BLOB of one format byte (1 = raw DEFLATE, RFC
// 1951) and the compressed UTF-8. A short text (or one that does not compress) stays a plain TEXT value, so both
// kinds can be in one index and a reader takes either.
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { CtxError } from "../../errors.ts";

const RAW_DEFLATE = 1;
/** Below this many UTF-16 units the BLOB's overhead eats the gain: stored as it is. */
const MIN_PACKED_CHARS = 160;
const encoder = new TextEncoder();
const MIN_CHUNK_SIZE = 1024;
const decoder = new TextDecoder();

/** The value to store in chunks.text for `text`. */
export function packChunkText(text: string): string | Uint8Array {
  return packChunkTextBytes(chunkTextToPack(text));
}

/**
 * The first half of packChunkText, for a worker thread that leaves the deflating to the main thread: `text` as it
 * is when it is stored so (short), else its UTF-8 bytes for packChunkTextBytes.
 */
export function chunkTextToPack(text: string): string | Uint8Array {
  return text.length < MIN_PACKED_CHARS ? text : encoder.encode(text);
}

/** The second half: a chunkTextToPack value as chunks.text stores it. */
export function packChunkTextBytes(value: string | Uint8Array): string | Uint8Array {
  if (typeof value === "string") return value;
  // An output buffer about the size the text deflates to (zlib's default is 16 KiB, garbage after every chunk: it grew
  // the main thread's RSS by ~50 MB before a collection). The bytes are the same (longer output takes more buffers).
  const deflated = deflateRawSync(value, { chunkSize: Math.max(MIN_CHUNK_SIZE, value.length >>> 1) });
  // Text that does not compress stays plain (rare: the bytes are decoded again).
  if (deflated.length + 1 >= value.length) return decoder.decode(value);
  const packed = new Uint8Array(deflated.length + 1);
  packed[0] = RAW_DEFLATE;
  packed.set(deflated, 1);
  return packed;
}

/** The text of a stored chunks.text value (TEXT as it is, a BLOB inflated); "" for NULL. */
export function unpackChunkText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array && value[0] === RAW_DEFLATE) {
    try {
      return inflateRawSync(value.subarray(1)).toString("utf8");
    } catch (error) {
      throw damaged(error);
    }
  }
  throw damaged(null);
}

function damaged(cause: unknown): CtxError {
  return new CtxError("INDEX_CORRUPT", "a chunk's stored text in the session index cannot be read", {
    hint: "run `ctx reindex`",
    cause,
  });
}
