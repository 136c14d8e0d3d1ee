// How much disk a project's snapshots and checkpoints take, from the folders themselves (not the catalog),
// including what killed writers and damaged files left behind, for `ctx status` and `ctx doctor`.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { TEMP_NAME } from "../files/atomic-write.ts";
import { TIME_ID_PATTERN } from "./time-id.ts";

export interface StorageUsage {
  snapshots: { count: number; bytes: number; pinnedCount: number; pinnedBytes: number };
  checkpoints: { count: number; bytes: number };
  /** Temp files of killed writers and snapshot files set aside as damaged. */
  leftovers: { tempFiles: number; damagedFiles: number; bytes: number };
  /** Every file in both folders (the catalog and lock files included). */
  totalBytes: number;
}

export async function storageUsage(projectRoot: string): Promise<StorageUsage> {
  const paths = projectPaths(projectRoot);
  const [snapshotFiles, checkpointFiles] = await Promise.all([sizesIn(paths.snapshots), sizesIn(paths.checkpoints)]);
  const usage: StorageUsage = {
    snapshots: { count: 0, bytes: 0, pinnedCount: 0, pinnedBytes: 0 },
    checkpoints: { count: 0, bytes: 0 },
    leftovers: { tempFiles: 0, damagedFiles: 0, bytes: 0 },
    totalBytes: 0,
  };
  for (const [name, bytes] of snapshotFiles) {
    usage.totalBytes += bytes;
    const id = name.slice(0, -".ctx".length);
    if (name.endsWith(".ctx") && TIME_ID_PATTERN.test(id)) {
      usage.snapshots.count++;
      usage.snapshots.bytes += bytes;
      if (snapshotFiles.has(`${id}.pin`)) {
        usage.snapshots.pinnedCount++;
        usage.snapshots.pinnedBytes += bytes;
      }
    } else countLeftover(usage, name, bytes);
  }
  for (const [name, bytes] of checkpointFiles) {
    usage.totalBytes += bytes;
    if (name.endsWith(".ctx") && TIME_ID_PATTERN.test(name.slice(0, -".ctx".length))) {
      usage.checkpoints.count++;
      usage.checkpoints.bytes += bytes;
    } else countLeftover(usage, name, bytes);
  }
  return usage;
}

function countLeftover(usage: StorageUsage, name: string, bytes: number): void {
  if (TEMP_NAME.test(name)) usage.leftovers.tempFiles++;
  else if (name.endsWith(".ctx.damaged")) usage.leftovers.damagedFiles++;
  else return;
  usage.leftovers.bytes += bytes;
}

/** Name -> size of the regular files in `dir`; empty when it does not exist. */
async function sizesIn(dir: string): Promise<Map<string, number>> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const sizes = new Map<string, number>();
  await Promise.all(
    names.map(async (name) => {
      const info = await stat(join(dir, name)).catch(() => null);
      if (info?.isFile()) sizes.set(name, info.size);
    }),
  );
  return sizes;
}
