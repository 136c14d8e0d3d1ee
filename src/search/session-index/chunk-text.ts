// How chunks.text is stored: most of the index's bytes are chunk text (kept for passages, snippets and vectors),
// so a chunk's text is stored deflated when that is smaller: a BLOB of one format byte and the compressed UTF-8.
// Format 1 is raw DEFLATE (RFC 1951) alone; format 2 is raw DEFLATE with the index's text dictionary as the preset
// dictionary (./text-dictionary.ts: 32 KiB of the chunk text the index held), then 4 bytes naming that
// dictionary (the start of its SHA-256), then the compressed bytes. A chunk of ~2.5 KB deflated alone cannot use the
// words, phrases and layout every chunk of a history repeats; with the dictionary it is ~20% smaller. A short text
// (or one that does not compress) stays a plain TEXT value, so every kind can be in one index and a reader takes any.
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { CtxError } from "../../errors.ts";

const RAW_DEFLATE = 1;
const DICTIONARY_DEFLATE = 2;
/** How many bytes of format 2 name its dictionary. */
export const DICTIONARY_ID_BYTES = 4;

/** An index's text dictionary: its bytes (at most 32 KiB, DEFLATE's window) and the id format 2 stores. */
export interface TextDictionary {
  bytes: Uint8Array;
  /** The first DICTIONARY_ID_BYTES bytes of the dictionary's SHA-256. */
  id: Uint8Array;
}
/** Below this many UTF-16 units the BLOB's overhead eats the gain: stored as it is. */
const MIN_PACKED_CHARS = 160;
const encoder = new TextEncoder();
const MIN_CHUNK_SIZE = 1024;
const decoder = new TextDecoder();

/** The value to store in chunks.text for `text`, deflated with `dictionary` when there is one. */
export function packChunkText(text: string, dictionary: TextDictionary | null = null): string | Uint8Array {
  return packChunkTextBytes(chunkTextToPack(text), dictionary);
}

/**
 * The first half of packChunkText, for a worker thread that leaves the deflating to the main thread: `text` as it
 * is when it is stored so (short), else its UTF-8 bytes for packChunkTextBytes.
 */
export function chunkTextToPack(text: string): string | Uint8Array {
  return text.length < MIN_PACKED_CHARS ? text : encoder.encode(text);
}

/** The second half: a chunkTextToPack value as chunks.text stores it (format 2 with a dictionary, else 1). */
export function packChunkTextBytes(
  value: string | Uint8Array,
  dictionary: TextDictionary | null = null,
): string | Uint8Array {
  if (typeof value === "string") return value;
  // An output buffer about the size the text deflates to (zlib's default is 16 KiB, garbage after every chunk: it grew
  // the main thread's RSS by ~50 MB before a collection). The bytes are the same (longer output takes more buffers).
  const chunkSize = Math.max(MIN_CHUNK_SIZE, value.length >>> 1);
  const deflated =
    dictionary === null
      ? deflateRawSync(value, { chunkSize })
      : deflateRawSync(value, { chunkSize, dictionary: dictionary.bytes });
  const header = dictionary === null ? 1 : 1 + DICTIONARY_ID_BYTES;
  // Text that does not compress stays plain (rare: the bytes are decoded again).
  if (deflated.length + header >= value.length) return decoder.decode(value);
  const packed = new Uint8Array(deflated.length + header);
  packed[0] = dictionary === null ? RAW_DEFLATE : DICTIONARY_DEFLATE;
  if (dictionary !== null) packed.set(dictionary.id.subarray(0, DICTIONARY_ID_BYTES), 1);
  packed.set(deflated, header);
  return packed;
}

/** The id of the dictionary a stored value was deflated with (format 2), or null (any other value). */
export function dictionaryIdOf(value: unknown): Uint8Array | null {
  if (!(value instanceof Uint8Array) || value[0] !== DICTIONARY_DEFLATE) return null;
  if (value.length < 1 + DICTIONARY_ID_BYTES) throw damaged(null);
  return value.subarray(1, 1 + DICTIONARY_ID_BYTES);
}

/**
 * The text of a stored chunks.text value (TEXT as it is, a BLOB inflated); "" for NULL. Format 2 needs the dictionary
 * it names (./text-dictionary.ts's readStoredText finds the index's): another or none is INDEX_CORRUPT.
 */
export function unpackChunkText(value: unknown, dictionary: TextDictionary | null = null): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array && value[0] === RAW_DEFLATE) {
    try {
      return inflateRawSync(value.subarray(1)).toString("utf8");
    } catch (error) {
      throw damaged(error);
    }
  }
  const id = dictionaryIdOf(value);
  if (id !== null) {
    if (dictionary === null || !sameId(id, dictionary.id)) {
      throw new CtxError("INDEX_CORRUPT", "a chunk's stored text names a text dictionary the session index lacks", {
        hint: "run `ctx reindex`",
      });
    }
    try {
      const deflated = (value as Uint8Array).subarray(1 + DICTIONARY_ID_BYTES);
      return inflateRawSync(deflated, { dictionary: dictionary.bytes }).toString("utf8");
    } catch (error) {
      throw damaged(error);
    }
  }
  throw damaged(null);
}

/** Whether two dictionary ids are the same (the first DICTIONARY_ID_BYTES bytes of each). */
export function sameId(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < DICTIONARY_ID_BYTES; i++) if (a[i] !== b[i]) return false;
  return a.length >= DICTIONARY_ID_BYTES && b.length >= DICTIONARY_ID_BYTES;
}

function damaged(cause: unknown): CtxError {
  return new CtxError("INDEX_CORRUPT", "a chunk's stored text in the session index cannot be read", {
    hint: "run `ctx reindex`",
    cause,
  });
}
