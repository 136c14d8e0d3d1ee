// What fork history read from each fork's transcript, kept so the next `ctx index`, `ctx forks` or `ctx stats` reads
// only the transcripts that changed (docs/forks.md): `<ctx home>/library/fork-outcomes.json`, written whole
// (atomic, 0600). Keyed by the transcript's path, size and mtime and the fork points looked for; the paths of files
// modified are redacted before they are kept. A damaged or foreign file is an empty cache (everything is read again).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import type { ForkOwnPart } from "../../core/library/fork-outcome.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { libraryDir } from "./library-dir.ts";

const OwnPartSchema = z.object({
  prompts: z.int(),
  replies: z.int(),
  filesModified: z.array(z.string()),
  filesModifiedCount: z.int(),
  firstAt: z.nullable(z.number()),
  lastAt: z.nullable(z.number()),
  sawPoint: z.nullable(z.string()),
});
const CacheSchema = z.object({ v: z.literal(1), entries: z.record(z.string(), OwnPartSchema) });

const pathOf = (env: NodeJS.ProcessEnv) => join(libraryDir(env), "fork-outcomes.json");

/** The key of one reading: the transcript as it was, and what was looked for in it. */
export function outcomeKey(path: string, size: number, mtimeMs: number, points: ReadonlySet<string>): string {
  return JSON.stringify([path, size, Math.round(mtimeMs), [...points].sort()]);
}

export async function readOutcomeCache(env: NodeJS.ProcessEnv): Promise<Map<string, ForkOwnPart>> {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(await readFile(pathOf(env), "utf8")));
    return parsed.success ? new Map(Object.entries(parsed.data.entries)) : new Map();
  } catch {
    return new Map();
  }
}

/** Replaces the cache with `entries`: readings of transcripts no longer forks (or changed) are dropped. */
export async function writeOutcomeCache(
  env: NodeJS.ProcessEnv,
  entries: ReadonlyMap<string, ForkOwnPart>,
): Promise<void> {
  await ensurePrivateDir(libraryDir(env));
  await writeFileAtomic(pathOf(env), `${JSON.stringify({ v: 1, entries: Object.fromEntries(entries) })}\n`);
}
