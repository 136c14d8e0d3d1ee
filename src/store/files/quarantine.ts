// A damaged state file is never overwritten and never half-used: it is renamed to
// `<name>.corrupt-<time>` (kept for inspection and recovery) so a fresh one can be written.
import { rename } from "node:fs/promises";
import type { $ZodType, output } from "zod/v4/core";
import { isCtxError } from "../../errors.ts";
import { withLock } from "./lock.ts";
import { readStateFile, type UpdateStateOptions, updateStateFile, verifyStateFile } from "./state-file.ts";

/**
 * Under the file's lock, moves `path` aside when it still fails to verify or to match `schema` (another
 * process may have replaced it meanwhile). Returns where it went, or null when it was sound or absent.
 */
export async function quarantineIfDamaged(path: string, schema: $ZodType, now: Date): Promise<string | null> {
  const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
  return withLock(path, async () => {
    const check = await verifyStateFile(path);
    if (!check.ok && check.code === "NOT_FOUND") return null;
    const damaged =
      !check.ok ||
      (await readStateFile(path, schema).then(
        () => false,
        () => true,
      ));
    if (!damaged) return null;
    await rename(path, aside);
    return aside;
  });
}

/**
 * updateStateFile, except that a damaged file is first moved aside (the update then sees null). For files
 * whose loss is recoverable (bookkeeping, or a state that is re-captured whole from the transcript).
 */
export async function updateStateFileOrQuarantine<S extends $ZodType>(
  path: string,
  schema: S,
  update: (current: output<S> | null) => output<S> | Promise<output<S>>,
  options: UpdateStateOptions & { now: Date },
): Promise<{ value: output<S>; movedAside: string | null }> {
  try {
    return { value: await updateStateFile(path, schema, update, options), movedAside: null };
  } catch (error) {
    if (!isCtxError(error) || error.code !== "STATE_CORRUPT") throw error;
    const movedAside = await quarantineIfDamaged(path, schema, options.now);
    return { value: await updateStateFile(path, schema, update, options), movedAside };
  }
}
