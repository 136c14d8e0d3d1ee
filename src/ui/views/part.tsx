// A part of a page, read on its own: its value, or why it could not be read. A page shows every part it could read
// and, in the place of one it could not (a damaged file, an index being rebuilt), that one line.
import type { Child } from "hono/jsx";
import { describeError } from "../../errors.ts";

export type Part<T> = { ok: true; value: T } | { ok: false; error: string };

export async function part<T>(read: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** A part's content, or the one line saying why it could not be read. */
export function PartOf<T>({ part: read, children }: { part: Part<T>; children: (value: T) => Child }) {
  return read.ok ? children(read.value) : <p class="view-error">Could not read this part: {read.error}</p>;
}
