// What kind of object a value is, asked in one place: a record (what JSON.parse gives for `{…}`: an object that
// is not an array) or, stricter, a plain object (made by `{…}` or Object.create(null): no Date, typed array or
// class instance). Zod-free, for the hook path.

/** An object, not null and not an array: a JSON object once parsed. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object whose prototype is Object.prototype or null: what a walk may rebuild key by key without losing a type. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
