// Writing a file at a path the person named (`ctx report --out`, the breadcrumb's daily note in `breadcrumb.vault`,
// the launcher scripts/install-launcher.sh writes). The folder is theirs, not ctx's: its mode is never changed and it
// is never created (ensurePrivateDir is for ctx's own folders only). Only a regular file is ever replaced: a device,
// FIFO, socket or folder is refused before anything is opened for writing, and a symbolic link is followed only with
// `force`, to a target that is itself a regular file or absent. A new file is 0600 (or the mode the caller asks for:
// the launcher's 0755). An existing one keeps its permission bits: it is replaced atomically
// (a temp file beside it, renamed over it) when it is this user's own with one link, so a reader sees the old page
// or the new one; another user's file (root writing into a shared folder) or a hard-linked one is rewritten in place
// through a descriptor checked to be that same regular file, so its owner and links stay.

import type { Stats } from "node:fs";
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { CtxError } from "../../errors.ts";
import { writeFileAtomicWith } from "./atomic-write.ts";
import { checkPathText } from "./safe-path.ts";

export interface UserFileOptions {
  /** The person passed --force: a symbolic link at the path is followed (its target must be a regular file or absent). */
  force?: boolean;
  /** A new file's permission bits (default 0600); an existing file keeps its own. */
  newFileMode?: number;
}

/** Where a write to a user-named path lands, and what is there now (null: nothing, a new file is made). */
export interface UserFileTarget {
  path: string;
  existing: Stats | null;
}

const MAX_LINKS = 40; // as the kernel's ELOOP limit

/**
 * Resolves where a write to `path` would land and refuses what must not be written: anything but a regular file or
 * nothing, a symbolic link without `force`, a folder that does not exist. Nothing is opened or changed.
 */
export async function userFileTarget(path: string, options: UserFileOptions = {}): Promise<UserFileTarget> {
  checkPathText(path);
  let current = resolve(path);
  for (let hops = 0; ; hops++) {
    const info = await lstatOrNull(current);
    if (info?.isSymbolicLink()) {
      const link = await readlink(current);
      if (options.force !== true) {
        throw new CtxError("UNSAFE_PATH", `${current} is a symbolic link (to ${link}); ctx does not write through it`, {
          hint: "pass --force to write the file it points to, or name the real file; nothing was written",
        });
      }
      if (hops >= MAX_LINKS) throw new CtxError("UNSAFE_PATH", `${path}: too many symbolic links`);
      current = resolve(dirname(current), link);
      continue;
    }
    if (info !== null && !info.isFile()) throw notRegularTarget(current, info);
    await requireFolder(dirname(current));
    return { path: current, existing: info };
  }
}

/**
 * Writes `data` to the path the person named, by the rules in the module comment; returns the file written (a
 * link's target with `force`). UNSAFE_PATH for a path that is not a regular file (or a link without force),
 * NOT_FOUND for a missing folder.
 */
export async function writeUserNamedFile(
  path: string,
  data: string | Uint8Array,
  options: UserFileOptions = {},
): Promise<string> {
  return writeUserNamedFileWith(path, (handle) => handle.writeFile(data), options);
}

/**
 * writeUserNamedFile for content written through the file's descriptor by `write` (a stream: `ctx export`'s
 * bundle), at position 0 of an empty file, by the same rules.
 */
export async function writeUserNamedFileWith(
  path: string,
  write: (handle: FileHandle) => Promise<void>,
  options: UserFileOptions = {},
): Promise<string> {
  const target = await userFileTarget(path, options);
  const { existing } = target;
  if (existing !== null && (existing.nlink > 1 || !ownedByMe(existing)))
    await rewriteInPlace(target.path, existing, write);
  else {
    const mode = existing === null ? (options.newFileMode ?? 0o600) : existing.mode & 0o777;
    await writeFileAtomicWith(target.path, write, { mode });
  }
  return target.path;
}

/** Truncates and rewrites the file through a descriptor that is checked to be the file looked at (no link followed). */
async function rewriteInPlace(path: string, seen: Stats, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | noFollow() | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.ino !== seen.ino || info.dev !== seen.dev) {
      throw new CtxError("CONFLICT", `${path} changed while ctx was writing it`, {
        hint: "run the command again; nothing was written",
      });
    }
    await handle.truncate(0);
    await write(handle);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function notRegularTarget(path: string, info: Stats): CtxError {
  const what = info.isDirectory()
    ? "a folder"
    : info.isFIFO()
      ? "a FIFO (named pipe)"
      : info.isSocket()
        ? "a socket"
        : info.isCharacterDevice()
          ? "a character device"
          : info.isBlockDevice()
            ? "a block device"
            : "not a regular file";
  return new CtxError("UNSAFE_PATH", `${path} is ${what}; ctx writes only regular files`, {
    hint: "name a new file or an existing regular file; nothing was written",
  });
}

/** A folder the person named (e.g. `bridge.claude.workdir`): it must exist; never made, never chmodded. */
export async function requireUserFolder(folder: string): Promise<void> {
  checkPathText(folder);
  await requireFolder(resolve(folder));
}

async function requireFolder(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (info?.isDirectory()) return;
  throw new CtxError("NOT_FOUND", `${folder} is not an existing folder`, {
    hint: "create the folder first (ctx does not create folders you name); nothing was written",
  });
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

function ownedByMe(info: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || info.uid === uid;
}

function noFollow(): number {
  return constants.O_NOFOLLOW ?? 0;
}
