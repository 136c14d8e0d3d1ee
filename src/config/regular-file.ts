// Files ctx reads are regular files only: a FIFO (or a device) as a transcript, a touched file or a config file
// would block a synchronous `open` forever and hang a hook; opening with O_NONBLOCK and checking fstat avoids it
// without a race between a check and the open. Here, below the config layer, so config files are read the same way;
// store/files/safe-path.ts re-exports it for the rest.
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { hasControlCharacter } from "../core/text/control-characters.ts";
import { CtxError } from "../errors.ts";

export const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export function notRegular(path: string): CtxError {
  return new CtxError("UNSAFE_PATH", `${path} is not a regular file; ctx reads only regular files`, {
    hint: "a pipe, socket or device there would block ctx; point it at the real file",
  });
}

export function checkPathText(path: string): void {
  if (hasControlCharacter(path)) {
    throw new CtxError("UNSAFE_PATH", `a path with a control character was refused: ${JSON.stringify(path)}`, {
      hint: "the path came from a hook input or a saved state; it cannot name a real transcript",
    });
  }
}

/** What the opening functions take: `noFollow` refuses a symbolic link too (ELOOP becomes UNSAFE_PATH); `listed` says
 *  the path was read from a folder listing (a sync's discovered transcripts), where a control character is the file's
 *  own name, not a forged path, so it is opened like any other (its text is sanitised where it is shown). */
export interface OpenRegularOptions {
  noFollow?: boolean;
  listed?: boolean;
}

/** A regular file opened for reading (a file descriptor), or null when absent; UNSAFE_PATH for anything else.
 *  Options: OpenRegularOptions.
 *  The promise-based twin is store/files/open-regular.ts (kept apart: loading `node:fs/promises` costs a hook
 *  process; bench/run.ts hooks measures it, builtinCostMs). */
export function openRegularFileSync(path: string, options: OpenRegularOptions = {}): number | null {
  if (options.listed !== true) checkPathText(path);
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP" && options.noFollow) {
      throw new CtxError("UNSAFE_PATH", `${path} is a symbolic link; ctx does not follow it here`, {
        hint: "a repository's own files are read only as regular files: replace the link with the file",
        cause: error,
      });
    }
    throw error;
  }
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  if (!regular) throw notRegular(path);
  return fd;
}
