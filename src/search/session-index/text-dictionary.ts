// The session index's text dictionary (./chunk-text.ts's format 2): made once, in a write transaction, from the first
// 32 KiB of chunk text the index holds, and kept in `meta` under `text_dictionary`. It never changes while the tables
// stand (`ctx reindex` drops it with them; the next sync makes another). Chunk text is redacted before it is stored,
// so the dictionary holds nothing the index did not. Each chunk packed with it names it (the start of its SHA-256): a
// process that holds another (one made after another process rebuilt the tables) reads meta again instead of
// inflating with the wrong one.
import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { DICTIONARY_ID_BYTES, dictionaryIdOf, sameId, type TextDictionary, unpackChunkText } from "./chunk-text.ts";

/** DEFLATE's window: a longer dictionary is not used. */
export const TEXT_DICTIONARY_BYTES = 32 * 1024;
const KEY = "text_dictionary";
/** The first chunks read to make it: a chunk holds ~2.5 KB of text, so 32 KiB takes about a dozen. */
const SOURCE_CHUNKS = 64;

const encoder = new TextEncoder();
/** Each open database's dictionary as last read (null: none then). */
const known = new WeakMap<DatabaseSync, TextDictionary | null>();

/** The index's text dictionary, or null while it has none; `fresh` reads `meta` again. */
export function textDictionaryOf(db: DatabaseSync, fresh = false): TextDictionary | null {
  const cached = known.get(db);
  if (!fresh && cached !== undefined) return cached;
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(KEY) as { value: unknown } | undefined;
  const bytes = row?.value;
  let dictionary: TextDictionary | null = null;
  if (bytes instanceof Uint8Array && bytes.length > 0 && bytes.length <= TEXT_DICTIONARY_BYTES) {
    dictionary =
      cached != null && Buffer.from(cached.bytes).equals(bytes)
        ? cached
        : { bytes, id: createHash("sha256").update(bytes).digest().subarray(0, DICTIONARY_ID_BYTES) };
  }
  known.set(db, dictionary);
  return dictionary;
}

/** The text of a chunks.text value of this index (any format). */
export function readStoredText(db: DatabaseSync, value: unknown): string {
  const id = dictionaryIdOf(value);
  if (id === null) return unpackChunkText(value);
  let dictionary = textDictionaryOf(db);
  if (dictionary === null || !sameId(dictionary.id, id)) dictionary = textDictionaryOf(db, true);
  return unpackChunkText(value, dictionary);
}

/**
 * The index's dictionary, made now if it has none and its first chunks hold TEXT_DICTIONARY_BYTES of text (else
 * null). The caller holds the write transaction: the dictionary and the chunks it is made of commit together, and
 * two processes cannot both make one.
 */
export function ensureTextDictionary(db: DatabaseSync): TextDictionary | null {
  const current = textDictionaryOf(db, true);
  if (current !== null) return current;
  const rows = db
    .prepare("SELECT text FROM chunks WHERE chunk_index >= 0 ORDER BY id LIMIT ?")
    .all(SOURCE_CHUNKS) as Array<{ text: unknown }>;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const row of rows) {
    if (size >= TEXT_DICTIONARY_BYTES) break;
    const bytes = encoder.encode(readStoredText(db, row.text));
    parts.push(bytes);
    size += bytes.length;
  }
  if (size < TEXT_DICTIONARY_BYTES) return null;
  const bytes = Buffer.concat(parts).subarray(0, TEXT_DICTIONARY_BYTES);
  db.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING").run(KEY, bytes);
  return textDictionaryOf(db, true);
}
