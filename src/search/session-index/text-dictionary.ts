// The session index's text dictionary (./chunk-text.ts's format 2): made once, in a write transaction, from 32 KiB of
// the chunk text the index holds (a slice of each of 64 chunks spread over its first ones), and kept in `meta` under
// `text_dictionary`. It never changes while the tables stand (`ctx reindex` drops it with them; the next sync makes
// another). Chunk text is redacted before it is stored, so the dictionary holds nothing the index did not. Each chunk
// packed with it names it (the start of its SHA-256): a process that holds another (one made after another process
// rebuilt the tables) reads meta again instead of inflating with the wrong one.
import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { DICTIONARY_ID_BYTES, dictionaryIdOf, sameId, type TextDictionary, unpackChunkText } from "./chunk-text.ts";

/** DEFLATE's window: a longer dictionary is not used. */
export const TEXT_DICTIONARY_BYTES = 32 * 1024;
const KEY = "text_dictionary";
/** The chunks it is made of: a slice of each, so that it holds what many sessions repeat, not a few sessions' text. */
const SOURCE_CHUNKS = 64;
/** The first chunks of the index they are spread over (a first sync's first batch holds ~100-1,000). */
const SPREAD_OVER = 4_096;
/** Each source chunk's slice: 64 of them fill the dictionary. */
const SLICE_BYTES = TEXT_DICTIONARY_BYTES / SOURCE_CHUNKS;

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
  const ids = (
    db.prepare("SELECT id FROM chunks WHERE chunk_index >= 0 ORDER BY id LIMIT ?").all(SPREAD_OVER) as Array<{
      id: number;
    }>
  ).map((row) => row.id);
  const read = db.prepare("SELECT text FROM chunks WHERE id = ?");
  const texts = spread(ids, SOURCE_CHUNKS).map((id) =>
    encoder.encode(readStoredText(db, (read.get(id) as { text: unknown } | undefined)?.text ?? null)),
  );
  const bytes = dictionaryFrom(texts);
  if (bytes === null) return null;
  db.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING").run(KEY, bytes);
  return textDictionaryOf(db, true);
}

/** `count` of `items` evenly spaced from the first (all of them when there are no more). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)] as T);
}

/**
 * TEXT_DICTIONARY_BYTES of `texts`: the first SLICE_BYTES of each in turn, then the next SLICE_BYTES of each, and so
 * on (so few or short texts still fill it); null when they hold less. Made from the first 32 KiB of the first chunks
 * before, it held four or five sessions' openings: on the 30,000 sessions of bench/scale-corpus.ts, 64 slices spread
 * over the first batch's chunks store the chunk text 3.5% smaller (docs/performance.md "Slices spread over the first
 * chunks").
 */
export function dictionaryFrom(texts: readonly Uint8Array[]): Uint8Array | null {
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  if (total < TEXT_DICTIONARY_BYTES) return null;
  const out = new Uint8Array(TEXT_DICTIONARY_BYTES);
  let filled = 0;
  for (let from = 0; filled < TEXT_DICTIONARY_BYTES; from += SLICE_BYTES) {
    for (const text of texts) {
      if (filled === TEXT_DICTIONARY_BYTES) break;
      const slice = text.subarray(
        from,
        Math.min(text.length, from + SLICE_BYTES, from + TEXT_DICTIONARY_BYTES - filled),
      );
      out.set(slice, filled);
      filled += slice.length;
    }
  }
  return out;
}
