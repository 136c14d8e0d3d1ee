// Crash-safe replacement of a file and private folders. Every file ctx writes goes through
// writeFileAtomic, so a reader sees the whole old file or the whole new one, even across SIGKILL or
// power loss; files are 0600 and ctx's folders 0700 because state holds the user's conversations.
import { chmod, type FileHandle, mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomHex } from "../../core/text/random-hex.ts";
import { assertNoLinkInCtxPath } from "./safe-path.ts";

/**
 * Writes `data` to a temp file beside `path` (same folder, so the rename cannot cross file systems),
 * fsyncs it, renames it over `path`, then fsyncs the folder so the rename itself survives a power loss.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  await writeFileAtomicWith(path, (handle) => handle.writeFile(data));
}

/**
 * writeFileAtomic for a file written piece by piece (a stream): `fill` writes the empty temp file through
 * `handle` (and may read it back by `tempPath` to check it); the rest is writeFileAtomic's.
 */
export async function writeFileAtomicWith(
  path: string,
  fill: (handle: FileHandle, tempPath: string) => Promise<void>,
  options: { mode?: number } = {},
): Promise<void> {
  const folder = dirname(path);
  assertNoLinkInCtxPath(folder);
  const temp = join(folder, `.${basename(path)}.${process.pid}.${randomHex(6)}.tmp`); // matches TEMP_NAME
  const mode = options.mode ?? 0o600;
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, "wx", 0o600);
    // A file the person owns keeps its mode (./user-file.ts); chmod because the umask must not narrow it.
    if (mode !== 0o600 && process.platform !== "win32") await handle.chmod(mode);
    await fill(handle, temp);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
}

/** The name of writeFileAtomic's temp files (shared with `ctx doctor`, which counts leftovers). */
export const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temp files of writers that were killed mid-write (SIGKILL skips every cleanup) from
 * `folder`, once older than `minAgeMs`: a live writer keeps its temp file for milliseconds, never minutes.
 * Returns the names removed. For `ctx doctor` and other housekeeping, not for the hot path.
 */
export async function removeOrphanedTempFiles(folder: string, minAgeMs = 10 * 60_000): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    if (!TEMP_NAME.test(name)) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isFile() || Date.now() - info.mtimeMs < minAgeMs) continue;
    await unlink(path).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}

/**
 * Creates `path` and any missing parents with mode 0700, and tightens `path` itself to 0700 when it
 * already exists with group or other access. Call it only on folders that belong to ctx.
 */
export async function ensurePrivateDir(path: string): Promise<void> {
  assertNoLinkInCtxPath(path); // never chmod, or create into, a folder reached through a link
  const firstCreated = await mkdir(path, { recursive: true, mode: 0o700 });
  if (firstCreated !== undefined) {
    // A new folder's own entry lives in its parent; sync that too so it survives a power loss.
    await syncFolder(dirname(firstCreated));
    return;
  }
  if (process.platform === "win32") return;
  const info = await stat(path);
  if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) {
    await chmod(path, info.mode & 0o700);
  }
}

// Some file systems and platforms cannot open or fsync a folder; there the rename is as durable as it gets.
const UNSYNCABLE_FOLDER = new Set(["EINVAL", "ENOTSUP", "EISDIR", "EPERM", "EACCES", "EBADF"]);

async function syncFolder(folder: string): Promise<void> {
  if (process.platform === "win32") return;
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, "r");
    await handle.sync();
  } catch (error) {
    if (!UNSYNCABLE_FOLDER.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    await handle?.close();
  }
}
