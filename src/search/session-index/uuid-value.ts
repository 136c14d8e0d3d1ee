// How chunks.last_uuid is stored: a line's uuid as Claude Code writes it (lowercase, 8-4-4-4-12 hex digits) is kept as
// its 16 bytes (a BLOB), 20 bytes fewer than its text on every chunk (~0.8% of the index, docs/performance.md "Index
// size"); anything else (an older index's text, a transcript whose uuids are not of that form) stays the TEXT it was,
// so a reader takes either and gives back exactly the string the transcript held.
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_BYTES = 16;
/** Where the dashes go in the 32 hex digits. */
const GROUPS = [8, 12, 16, 20] as const;

/** The value chunks.last_uuid stores for `uuid`. */
export function packUuid(uuid: string | null): string | Uint8Array | null {
  if (uuid === null || !CANONICAL_UUID.test(uuid)) return uuid;
  return Buffer.from(uuid.replaceAll("-", ""), "hex");
}

/** The uuid a chunks.last_uuid value holds (packUuid's inverse); null for a NULL or a value no writer stores. */
export function readUuid(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (!(value instanceof Uint8Array) || value.length !== UUID_BYTES) return null;
  const hex = Buffer.from(value.buffer, value.byteOffset, value.length).toString("hex");
  const [a, b, c, d] = GROUPS;
  return `${hex.slice(0, a)}-${hex.slice(a, b)}-${hex.slice(b, c)}-${hex.slice(c, d)}-${hex.slice(d)}`;
}
