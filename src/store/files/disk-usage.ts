// How many bytes a folder of ctx's holds: every regular file below it, counted by lstat, so a link is never followed
// out of the folder (and counts as nothing). For `ctx status`'s storage line.
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/** The bytes of the regular files under `dir` (0 when it does not exist). */
export async function diskUsage(dir: string): Promise<number> {
  const info = await lstat(dir).catch(() => null);
  if (info === null) return 0;
  if (info.isFile()) return info.size;
  if (!info.isDirectory()) return 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(names.map((name) => diskUsage(join(dir, name))));
  return sizes.reduce((sum, size) => sum + size, 0);
}
