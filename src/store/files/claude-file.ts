// Writing into Claude Code's own folder (`ctx archive restore`, `ctx fork` of a teammate's session, `ctx import`): it is the
// person's folder, not ctx's and not a repository. What is already at a target is looked at first: only a regular
// file counts, one with the same bytes is left alone, a different one is never replaced unless the caller says so.
// A file is written to a temp name beside its target (opened O_NOFOLLOW, 0600), then put in place: renamed over
// the target when replacing is allowed, else linked to it, which fails when something appeared there meanwhile.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, link, lstat, mkdir, open, rename, unlink, utimes } from "node:fs/promises";
import { dirname } from "node:path";
import { CtxError } from "../../errors.ts";
import { openRegularFile } from "./open-regular.ts";

export const CLAUDE_WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

/** What is at a target now: nothing, a regular file with these bytes, or a different regular file. */
export type ClaudeTargetState = "absent" | "identical" | "different";

/**
 * Compares the file at `target` with `sha256` (hex). Anything but a regular file or nothing (a folder, a link, a
 * FIFO) is CONFLICT, with `nothingDone` as the end of its hint ("nothing was restored").
 */
export async function claudeTargetState(
  target: string,
  sha256: string,
  nothingDone: string,
): Promise<ClaudeTargetState> {
  const existing = await lstat(target).catch(() => null);
  if (existing === null) return "absent";
  if (!existing.isFile()) {
    throw new CtxError("CONFLICT", `${target} exists and is not a regular file`, {
      hint: `move it away and try again; ${nothingDone}`,
    });
  }
  return (await sha256OfRegularFile(target)) === sha256 ? "identical" : "different";
}

/** A regular file's SHA-256 (hex), read in pieces, never through a link. */
export async function sha256OfRegularFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  await readInPieces(path, async (piece) => {
    hash.update(piece);
  });
  return hash.digest("hex");
}

/**
 * Hands a regular file's bytes (never through a link) to `use` a piece at a time, in one reused buffer: a stream's
 * fresh buffer per piece is garbage V8 collects late, tens of MiB of a large transcript at once (bench/run.ts bundle).
 */
async function readInPieces(path: string, use: (piece: Buffer) => Promise<void>): Promise<void> {
  const handle = await openRegularFile(path, { noFollow: true });
  if (handle === null) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: "ENOENT" });
  try {
    const buffer = Buffer.allocUnsafe(PIECE_BYTES);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      await use(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

const PIECE_BYTES = 1 << 20;

/** The temp name a file for `target` is written to before it is put in place. */
export function claudeTempPath(target: string, purpose: string): string {
  return `${target}.ctx-${purpose}-${process.pid}.tmp`;
}

/**
 * Writes `data` as a new file at `target` (its folder made 0700 when missing), dated `now`. CONFLICT when a file
 * appeared at the target after it was looked at; the temp file is removed whatever happens.
 */
export async function writeNewClaudeFile(target: string, data: Uint8Array, now: Date): Promise<void> {
  await putClaudeFile(target, "fork", now, false, async (handle) => {
    for (let at = 0; at < data.length; ) at += (await handle.write(data, at, data.length - at)).bytesWritten;
  });
}

/**
 * Copies the file at `source` (ctx's own staged copy, read in pieces) to `target`, dated `now`: a new file as
 * writeNewClaudeFile writes one, or, with `replace` (the person's --force, after claudeTargetState said
 * "different"), renamed over what is there.
 */
export async function copyToClaudeFile(
  target: string,
  source: string,
  now: Date,
  options: { replace: boolean },
): Promise<void> {
  await putClaudeFile(target, "import", now, options.replace, async (handle) => {
    await readInPieces(source, async (piece) => {
      for (let at = 0; at < piece.length; ) at += (await handle.write(piece, at, piece.length - at)).bytesWritten;
    });
  });
}

/** The temp file written by `fill`, synced and dated, then linked to the target (or renamed over it: `replace`). */
async function putClaudeFile(
  target: string,
  purpose: string,
  now: Date,
  replace: boolean,
  fill: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const temp = claudeTempPath(target, purpose);
  try {
    const handle = await open(temp, CLAUDE_WRITE_FLAGS, 0o600);
    try {
      await fill(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await utimes(temp, now, now);
    if (replace) {
      await rename(temp, target);
      return;
    }
    await link(temp, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
      throw new CtxError("CONFLICT", `${target} appeared while ctx was writing it`, {
        hint: "look at it and try again; ctx left it as it is",
      });
    });
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
