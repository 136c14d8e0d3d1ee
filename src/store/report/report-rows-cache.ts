// What a session's row in `ctx report`'s table and the ui's context page took from its transcript (replies with
// usage, peak, compactions), kept so the next page load reads only the transcripts that changed:
// `<ctx home>/cache/report-rows.json`, written whole (atomic, 0600). Keyed by the transcript's path, size and mtime;
// none of it depends on the config (the window and tiers do, and only the drawn session's curve carries them). A
// damaged or foreign file is an empty cache: everything is read again.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { ctxHome } from "../../config/paths.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";

const RowSchema = z.object({ replies: z.int(), peakTokens: z.number(), compactions: z.int() });
const CacheSchema = z.object({ v: z.literal(1), entries: z.record(z.string(), RowSchema) });
export type CachedReportRow = z.infer<typeof RowSchema>;

export const reportRowCachePath = (env: NodeJS.ProcessEnv) => join(ctxHome(env), "cache", "report-rows.json");

/** The key of one reading: the transcript as it was. */
export function reportRowKey(path: string, size: number, mtimeMs: number): string {
  return JSON.stringify([path, size, Math.round(mtimeMs)]);
}

export async function readReportRowCache(env: NodeJS.ProcessEnv): Promise<Map<string, CachedReportRow>> {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(await readFile(reportRowCachePath(env), "utf8")));
    return parsed.success ? new Map(Object.entries(parsed.data.entries)) : new Map();
  } catch {
    return new Map();
  }
}

/** Replaces the cache with `entries`: the rows of sessions no longer listed (or changed since) are dropped. */
export async function writeReportRowCache(
  env: NodeJS.ProcessEnv,
  entries: ReadonlyMap<string, CachedReportRow>,
): Promise<void> {
  const path = reportRowCachePath(env);
  await ensurePrivateDir(dirname(path));
  await writeFileAtomic(path, `${JSON.stringify({ v: 1, entries: Object.fromEntries(entries) })}\n`);
}
