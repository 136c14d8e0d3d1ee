// What ctx opens and where it writes, checked where it happens:
// - ctx's own folders are never reached through a symbolic link. A repository can commit `.ctx` (or
//   `.ctx/snapshots`) as a link, and hooks run in every repository a plugin user opens: following it would
//   chmod and fill a folder of the committer's choosing. The check walks from the nearest `.ctx` folder
//   (a project's, or `~/.ctx`) down to the folder written into, with lstat.
// - Files read are regular files only. A FIFO (or a device) as a transcript or a touched file would block
//   a synchronous `open` forever and hang the hook; opening with O_NONBLOCK and checking fstat avoids it
//   without a race between a check and the open.
import { lstatSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { basename, dirname, parse } from "node:path";
import { quoteShellWord } from "../../core/shell/quote.ts";
import { CtxError } from "../../errors.ts";

// Reading only regular files is a rule of its own, below the config layer (config files are read with it too).
export {
  checkPathText,
  notRegular,
  type OpenRegularOptions,
  openRegularFileSync,
  READ_FLAGS,
} from "../../config/regular-file.ts";

const CTX_FOLDER_NAME = ".ctx";

function linkError(path: string): CtxError {
  return new CtxError("UNSAFE_PATH", `${path} is a symbolic link; ctx never writes through one`, {
    hint: `ctx keeps private state there: remove the link (\`rm ${quoteShellWord(path)}\`) so ctx makes a real folder, or point CTX_HOME at a real folder`,
  });
}

/**
 * Throws UNSAFE_PATH when `folder`, or any folder between it and the nearest enclosing `.ctx` folder
 * (that one included), is a symbolic link. Folders that do not exist yet pass (they will be made as real
 * ones). With no `.ctx` above it, nothing is checked.
 */
export function assertNoLinkInCtxPath(folder: string): void {
  const chain: string[] = [];
  let current = folder;
  const { root } = parse(folder);
  for (;;) {
    chain.push(current);
    if (basename(current) === CTX_FOLDER_NAME || current === root) break;
    const up = dirname(current);
    if (up === current) break;
    current = up;
  }
  // Outside a `.ctx` folder the files are not ctx's own (.claude/settings.json, MEMORY.md): a user may link
  // those folders on purpose, so nothing is checked there.
  if (basename(chain[chain.length - 1] ?? "") !== CTX_FOLDER_NAME) return;
  for (const path of chain) {
    let info: ReturnType<typeof lstatSync> | undefined;
    try {
      info = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    if (info?.isSymbolicLink()) throw linkError(path);
  }
}

/**
 * Throws UNSAFE_PATH unless `path` is absent or a real folder (lstat: a link is refused even when it leads to a folder
 * inside the same tree). For a folder ctx removes and replaces whole, such as the build's plugin folder: removing or
 * renaming through a committed link would act on the folder it leads to. `shown` names it in the message.
 */
export async function assertOwnFolderOrAbsent(path: string, shown = path): Promise<void> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (info === null || info.isDirectory()) return;
  const what = info.isSymbolicLink() ? "a link" : "not a folder";
  throw new CtxError("UNSAFE_PATH", `${shown} is ${what}; ctx replaces only a folder of its own there`, {
    hint: `remove it (\`rm ${quoteShellWord(path)}\`), then run again; nothing was removed`,
  });
}

/** The same check as a yes/no, for hot paths that skip their work rather than fail. */
export function isCtxPathSafe(folder: string): boolean {
  try {
    assertNoLinkInCtxPath(folder);
    return true;
  } catch {
    return false;
  }
}

/**
 * Replaces a small file that is a hint, not state (the checkpoint counter, the guard's measurements, the config
 * cache): written to a temp file beside it and renamed over it, so a reader sees the old or the new file, never half
 * of one; 0600. No fsync: these are rewritten constantly (after every tool call) and losing the last write costs
 * nothing; state files go through ./atomic-write.ts, which syncs. Synchronous, for the every-call hook. The caller
 * has checked the folder (isCtxPathSafe). A failure leaves no temp file and is thrown.
 */
export function replaceFileSync(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // nothing left behind
    }
    throw error;
  }
}
