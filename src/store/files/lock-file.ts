// How a lock record sits on disk. Preferred: a symlink whose target text is the owner record, so
// creating the lock and writing its owner is one atomic step and a killed process can never leave a
// lock without an owner (the trick Emacs lock files use). Where symlinks are not allowed (Windows
// without developer mode, FAT) it falls back to an O_EXCL file written in the same synchronous step.
import { closeSync, openSync, writeSync } from "node:fs";
import { lstat, lutimes, readFile, readlink, symlink, unlink } from "node:fs/promises";

/** Per process; switched off the first time the file system refuses a symlink. Tests flip it. */
export const lockRecordStyle = { symlinks: process.platform !== "win32" };

const SYMLINK_REFUSED = new Set(["EPERM", "ENOTSUP", "ENOSYS", "EOPNOTSUPP", "EINVAL"]);

export interface LockRecordOnDisk {
  text: string;
  mtimeMs: number;
}

/** Creates the record exclusively: false when something is already there. ENOENT when the folder is missing. */
export async function createLockRecord(path: string, text: string): Promise<boolean> {
  if (lockRecordStyle.symlinks) {
    try {
      await symlink(text, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (code === "EEXIST") return false;
      if (!SYMLINK_REFUSED.has(code)) throw error;
      lockRecordStyle.symlinks = false;
    }
  }
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  // Synchronous on purpose: no event-loop turn between creating the file and filling it.
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The record at `path` (symlink or file), or null when there is none. */
export async function readLockRecord(path: string): Promise<LockRecordOnDisk | null> {
  try {
    const info = await lstat(path);
    const text = info.isSymbolicLink() ? await readlink(path) : await readFile(path, "utf8");
    return { text, mtimeMs: info.mtimeMs };
  } catch (error) {
    // ENOENT also when the record was replaced between lstat and read: the caller simply looks again.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Marks the record as fresh (its mtime is what staleness is judged by). */
export async function touchLockRecord(path: string): Promise<void> {
  const now = new Date();
  await lutimes(path, now, now);
}

export async function removeLockRecord(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}
