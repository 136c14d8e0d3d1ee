// The fork log (docs/forks.md): one JSON line per search ctx answered and per fork it ran, in
// `<ctx home>/library/fork-log.jsonl`, 0600 in a 0700 folder. Append-only, so two searches at once lose nothing:
// each record is one write(2) of one line on an O_APPEND descriptor, which the kernel places whole at the end.
// Bounded: past MAX_LOG_BYTES the file is renamed to `fork-log.1.jsonl` under its lock (the older generation is
// dropped), so the log holds between one and two generations. A writer that opened the file just before the
// rename lands its line in the older generation, which is read too. A line that is not a record is skipped and
// counted. This module loads no zod (a search appends through it); ./fork-log-read.ts checks lines with the schema.
// The append is synchronous: four system calls, where the promise API would start libuv's thread pool in a search
// process that otherwise never uses it (bench/run.ts cli: milliseconds of a ~50 ms search).
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { rename, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ForkLogRecord } from "../../core/library/fork-log-schema.ts";
import { CtxError } from "../../errors.ts";
import { assertNoLinkInCtxPath, notRegular } from "../files/safe-path.ts";
import { libraryDir } from "./library-dir.ts";

/** About 2,000 searches a generation (a record is ~500 bytes): months of use, read in milliseconds. */
export const MAX_LOG_BYTES = 1024 * 1024;

export function forkLogPath(env: NodeJS.ProcessEnv): string {
  return join(libraryDir(env), "fork-log.jsonl");
}

export const olderPath = (path: string) => path.replace(/\.jsonl$/, ".1.jsonl");

/** Appends one record; rotates the file when it has grown past `maxBytes`. */
export async function appendForkLog(
  env: NodeJS.ProcessEnv,
  record: ForkLogRecord,
  maxBytes = MAX_LOG_BYTES,
): Promise<void> {
  const path = forkLogPath(env);
  const line = `${JSON.stringify(record)}\n`;
  let size: number;
  const fd = await openLog(env, path);
  try {
    // One write(2) of the whole line: O_APPEND places it at the end as one piece, whoever else is appending.
    writeSync(fd, line);
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  if (size > maxBytes) await rotate(path, maxBytes);
}

/** The log opened for appending; its folder made (0700) the first time. The folder's link check is every time's. */
async function openLog(env: NodeJS.ProcessEnv, path: string): Promise<number> {
  const folder = libraryDir(env);
  assertNoLinkInCtxPath(folder);
  try {
    return openForAppend(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // Loaded the first time only: a search appends to a folder that is there.
  const { ensurePrivateDir } = await import("../files/atomic-write.ts");
  await ensurePrivateDir(folder);
  return openForAppend(path);
}

async function rotate(path: string, maxBytes: number): Promise<void> {
  // Loaded when the log is full only, once in about two thousand searches.
  const { withLock } = await import("../files/lock.ts");
  await withLock(path, async () => {
    // Checked again under the lock: another writer may have rotated it already.
    const info = await stat(path).catch(() => null);
    if (info === null || info.size <= maxBytes) return;
    await rename(path, olderPath(path));
  });
}

function openForAppend(path: string): number {
  const flags =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
    throw new CtxError("UNSAFE_PATH", `${path} is a symbolic link; ctx never writes its fork log through one`, {
      hint: "remove the link: the next search starts a new log",
    });
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw notRegular(path);
  }
  return fd;
}
