// How chunks.text is stored: most of the index's bytes are chunk text (kept for passages, snippets and vectors),
// so a chunk's text is stored deflated when that is smaller: a BLOB of one format byte (1 = raw DEFLATE, RFC
// 1951) and the compressed UTF-8. A short text (or one that does not compress) stays a plain TEXT value, so both
// kinds can be in one index and a reader takes either.
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { CtxError } from "../../errors.ts";

const RAW_DEFLATE = 1;
/** Below this many UTF-16 units the BLOB's overhead eats the gain: stored as it is. */
const MIN_PACKED_CHARS = 160;

/** The value to store in chunks.text for `text`. */
export function packChunkText(text: string): string | Uint8Array {
  if (text.length < MIN_PACKED_CHARS) return text;
  const plain = Buffer.from(text, "utf8");
  const deflated = deflateRawSync(plain);
  if (deflated.length + 1 >= plain.length) return text;
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
