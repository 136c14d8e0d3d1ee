// What PostgreSQL cannot store, made storable where ctx writes to the team server (issue 31, "push never gets
// stuck"): a text value refuses the NUL byte ("invalid byte sequence for encoding UTF8: 0x00"), jsonb refuses the
// `\u0000` escape in a value or a key, and a lone UTF-16 surrogate is no Unicode character (node-postgres would send
// it as U+FFFD, and jsonb refuses its `\udxxx` escape). Each becomes U+FFFD, the replacement character, so the rest
// of the text (its words, where they split) stays as it was. Idempotent: cleaned text passes through unchanged.

/** NUL, a high surrogate not followed by a low one, a low surrogate not preceded by a high one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE_ALL = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const REPLACEMENT_CHARACTER = "\ufffd";

/** `text` with NUL and lone surrogates replaced by U+FFFD: what a PostgreSQL text column stores as given. */
export function storableText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, REPLACEMENT_CHARACTER) : text;
}

/** `value` as JSON text a jsonb column accepts: every string and every object key made storable. */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "string") return storableText(item);
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const keys = Object.keys(item);
    if (!keys.some((key) => UNSTORABLE.test(key))) return item;
    // Returned in its place: JSON.stringify then walks this object, whose values come back here.
    return Object.fromEntries(keys.map((key) => [storableText(key), (item as Record<string, unknown>)[key]]));
  });
}

/**
 * A statement's parameters with every string, and every string inside an array parameter (text[] sent as an array),
 * made storable. Bytes (bytea), numbers, booleans and null pass unchanged.
 */
export function storableValues(values: readonly unknown[]): unknown[] {
  return values.map(storableValue);
}

function storableValue(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableValue);
  return value;
}
