// Archival of snapshots: rewriting an LZ4 snapshot as zstd level 19 (smaller, but slow: bench/run.ts snapshots),
// and starting that in a detached process so the pre-compact hook returns at once. The slow compression
// runs without the catalog lock; only the final swap holds it, and only if the file is still the one read.
import { readFile } from "node:fs/promises";
import { safeParse } from "zod/mini";
import { withHooksDisabled } from "../../config/hooks-disabled.ts";
import { projectPaths } from "../../config/paths.ts";
import { CtxError, describeError } from "../../errors.ts";
import { writeFileAtomic } from "../files/atomic-write.ts";
import { decodeContainer, encodeContainer, HEADER_BYTES } from "../files/container.ts";
import { type LockOptions, withLock } from "../files/lock.ts";
import { startDetachedCtx } from "../process/detached-child.ts";
import {
  catalogFile,
  entryOf,
  pinFile,
  readIfPresent,
  reconcileCatalog,
  type SnapshotEntry,
  SnapshotFileSchema,
  snapshotFile,
  writeCatalog,
} from "./catalog.ts";
import { TIME_ID_PATTERN } from "./time-id.ts";

export interface RecompressResult {
  snapshot: SnapshotEntry;
  beforeBytes: number;
  afterBytes: number;
  /** False when the snapshot was already zstd, or another process changed it meanwhile. */
  recompressed: boolean;
}

/**
 * Rewrites snapshot `id` as zstd-19. The new bytes are decoded and checked against the old payload's
 * SHA-256 before they replace anything, and read back after; a bad read-back restores the LZ4 file.
 * Null when there is no such snapshot (pruned meanwhile, say). Not for a hook's hot path.
 */
export async function recompressSnapshot(
  projectRoot: string,
  id: string,
  options: LockOptions = {},
): Promise<RecompressResult | null> {
  if (!TIME_ID_PATTERN.test(id)) return null;
  const dir = projectPaths(projectRoot).snapshots;
  const path = snapshotFile(dir, id);
  const original = await readIfPresent(path);
  if (original === null) return null;
  const decoded = decodeContainer(original, path);
  const file = safeParse(SnapshotFileSchema, decoded.value);
  if (!file.success) {
    throw new CtxError("STATE_CORRUPT", `${path}: not a snapshot`, { hint: "`ctx snapshot list` sets it aside." });
  }
  const entryNow = async (codec: SnapshotEntry["codec"], bytes: number) =>
    entryOf(file.data.meta, codec, bytes, (await readIfPresent(pinFile(dir, id))) !== null);
  // A hook writes zstd at a fast level (or LZ4 on an older Node): zstd-19 is redone unless it gains nothing,
  // which is how a file already at level 19 is recognised (the level is not recorded in the frame).
  const recompressed = encodeContainer(decoded.value, "zstd");
  if (decoded.codec === "zstd" && recompressed.length >= original.length) {
    return { snapshot: await entryNow("zstd", original.length), ...sizes(original, original), recompressed: false };
  }
  // Same msgpack payload, same SHA-256 in the header: proves the re-encoding is byte for byte the original.
  if (!sameChecksum(original, recompressed)) {
    throw new CtxError("INTERNAL", `${path}: re-encoding the snapshot changed its payload; kept the LZ4 file`, {
      hint: "This is a bug in ctx; please report it. The snapshot itself is fine.",
    });
  }
  decodeContainer(recompressed, path);

  return withLock(
    catalogFile(dir),
    async () => {
      const current = await readIfPresent(path);
      if (current === null) return null;
      if (!Buffer.from(current).equals(original)) {
        // Another recompression won the race; what is there now is as good.
        const codec = decodeContainer(current, path).codec;
        return { snapshot: await entryNow(codec, current.length), ...sizes(original, current), recompressed: false };
      }
      const { entries } = await reconcileCatalog(dir);
      await writeFileAtomic(path, recompressed);
      try {
        decodeContainer(await readFile(path), path);
      } catch (error) {
        await writeFileAtomic(path, original);
        throw new CtxError("STATE_CORRUPT", `${path}: the zstd rewrite did not verify (${describeError(error)})`, {
          hint: "The LZ4 snapshot was put back. Check the disk, then retry `ctx snapshot recompress`.",
          cause: error,
        });
      }
      const snapshot = await entryNow("zstd", recompressed.length);
      await writeCatalog(
        dir,
        entries.map((entry) => (entry.id === id ? snapshot : entry)),
      );
      return { snapshot, ...sizes(original, recompressed), recompressed: true };
    },
    options,
  );
}

export interface SpawnRecompressOptions {
  /** The Node binary (process.execPath in production). */
  execPath: string;
  /** The ctx CLI entry (`dist/ctx.js`), run as `<execPath> <cliPath> snapshot recompress <id> --project <root>`. */
  cliPath: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the recompression in a detached process and returns at once: its own session (a signal to the
 * hook's process group does not reach it), no stdio (it holds none of Claude Code's pipes open, so the
 * hook's exit is seen at once), unref'd (this process does not wait for it). CTX_HOOKS_DISABLED keeps
 * anything it runs from firing ctx hooks. Returns the child's pid (undefined when it could not start).
 */
export function spawnDetachedRecompress(
  projectRoot: string,
  id: string,
  options: SpawnRecompressOptions,
): { pid: number | undefined } {
  // No priority given: it runs at the hook's, as it always has.
  const pid = startDetachedCtx(["snapshot", "recompress", id, "--project", projectRoot], {
    cliPath: options.cliPath,
    execPath: options.execPath,
    env: withHooksDisabled(options.env ?? process.env),
    cwd: projectRoot,
  });
  return { pid };
}

function sameChecksum(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.subarray(16, HEADER_BYTES)).equals(b.subarray(16, HEADER_BYTES));
}

function sizes(before: Uint8Array, after: Uint8Array): { beforeBytes: number; afterBytes: number } {
  return { beforeBytes: before.length, afterBytes: after.length };
}
