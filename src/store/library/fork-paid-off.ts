// The sources whose forks paid off, as search reads them (docs/forks.md "Ranking"): written whole (atomic, 0600)
// each time fork history is built (`ctx index`, `ctx forks`, `ctx stats`), read by every search. Plain JSON read
// without zod: a search loads none. A file that is missing, damaged or not this shape is no lift at all.
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { libraryDir } from "./library-dir.ts";

/** Sources kept: the most paid-off forks first; a search weighs only its pool of twenty. */
const MAX_SOURCES = 5_000;
/** Larger than MAX_SOURCES entries take: someone else's file, not read. */
const MAX_BYTES = 1024 * 1024;

const pathOf = (env: NodeJS.ProcessEnv) => join(libraryDir(env), "fork-paid-off.json");

export async function writePaidOffSources(env: NodeJS.ProcessEnv, counts: ReadonlyMap<string, number>): Promise<void> {
  const sources = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_SOURCES));
  await ensurePrivateDir(libraryDir(env));
  await writeFileAtomic(pathOf(env), `${JSON.stringify({ v: 1, sources })}\n`);
}

export async function readPaidOffSources(env: NodeJS.ProcessEnv): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let handle: FileHandle | undefined;
  try {
    handle = await open(pathOf(env), constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_BYTES) return counts;
    const value = JSON.parse(await handle.readFile("utf8")) as { v?: unknown; sources?: unknown };
    if (value.v !== 1 || typeof value.sources !== "object" || value.sources === null) return counts;
    for (const [id, count] of Object.entries(value.sources)) {
      if (typeof count === "number" && Number.isInteger(count) && count > 0) counts.set(id, count);
    }
  } catch {
    // Missing or damaged: no lift (the next `ctx index` or `ctx forks` writes it again).
  } finally {
    await handle?.close();
  }
  return counts;
}
