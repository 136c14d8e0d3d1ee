// The fork log (docs/forks.md): one JSON line per search ctx answered and per fork it ran, in
// `<ctx home>/library/fork-log.jsonl`, 0600 in a 0700 folder. Append-only, so two searches at once lose nothing:
// each record is one write(2) of one line on an O_APPEND descriptor, which the kernel places whole at the end.
// Bounded: past MAX_LOG_BYTES the file is renamed to `fork-log.1.jsonl` under its lock (the older generation is
// dropped), so the log holds between one and two generations. A writer that opened the file just before the
// rename lands its line in the older generation, which is read too. A line that is not a record is skipped and
// counted. This module loads no zod (a search appends through it); ./fork-log-read.ts checks lines with the schema.
import { constants } from "node:fs";
import { type FileHandle, open, rename, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ForkLogRecord } from "../../core/library/fork-log-schema.ts";
import { ensurePrivateDir } from "../files/atomic-write.ts";
import { withLock } from "../files/lock.ts";
import { notRegular } from "../files/safe-path.ts";
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
  await ensurePrivateDir(libraryDir(env));
  const line = `${JSON.stringify(record)}\n`;
  let size: number;
  const handle = await openForAppend(path);
  try {
    await handle.write(line);
    size = (await handle.stat()).size;
  } finally {
    await handle.close();
  }
  if (size > maxBytes) await rotate(path, maxBytes);
}

async function rotate(path: string, maxBytes: number): Promise<void> {
  await withLock(path, async () => {
    // Checked again under the lock: another writer may have rotated it already.
    const info = await stat(path).catch(() => null);
    if (info === null || info.size <= maxBytes) return;
    await rename(path, olderPath(path));
  });
}

async function openForAppend(path: string): Promise<FileHandle> {
  const flags =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
  const handle = await open(path, flags, 0o600);
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw notRegular(path);
  }
  return handle;
}
