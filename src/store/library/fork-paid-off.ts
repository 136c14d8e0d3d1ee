// The sources whose forks paid off, as search reads them (docs/forks.md "Ranking"): written whole (atomic, 0600, ./fork-paid-off-write.ts)
// each time fork history is built (`ctx index`, `ctx forks`, `ctx stats`), read by every search. Plain JSON read
// without zod: a search loads none. A file that is missing, damaged or not this shape is no lift at all.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { libraryDir } from "./library-dir.ts";

/** Larger than the 5,000 sources ./fork-paid-off-write.ts keeps take: someone else's file, not read. */
const MAX_BYTES = 1024 * 1024;

export const paidOffPath = (env: NodeJS.ProcessEnv) => join(libraryDir(env), "fork-paid-off.json");

/** Synchronous, like the search that reads it (./fork-log.ts says why): one open, one stat, one read. */
export function readPaidOffSources(env: NodeJS.ProcessEnv): Map<string, number> {
  const counts = new Map<string, number>();
  let fd: number | undefined;
  try {
    fd = openSync(paidOffPath(env), constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_BYTES) return counts;
    const value = JSON.parse(readFileSync(fd, "utf8")) as { v?: unknown; sources?: unknown };
    if (value.v !== 1 || typeof value.sources !== "object" || value.sources === null) return counts;
    for (const [id, count] of Object.entries(value.sources)) {
      if (typeof count === "number" && Number.isInteger(count) && count > 0) counts.set(id, count);
    }
  } catch {
    // Missing or damaged: no lift (the next `ctx index` or `ctx forks` writes it again).
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return counts;
}
