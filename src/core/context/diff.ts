// Compares the files a saved context tracks with what is on disk now, pure: the hashes are taken by the
// caller (src/store/context/diff.ts). Only in-project files count; ctx never hashes files outside the project.
import * as z from "zod/mini";
import type { FileAccess } from "./schema.ts";

export const ContextDiffSchema = z.object({
  /** Saved with a hash, and the file on disk now hashes differently. */
  modified: z.array(z.string()),
  /** Saved with a hash, and the file is gone. */
  deleted: z.array(z.string()),
  unchanged: z.array(z.string()),
  /** Saved without a hash (gone, unreadable or too large at save time), or not hashable now: not compared. */
  untracked: z.array(z.string()),
  /** New since the save, in the folders the saved files live in. */
  added: z.array(z.string()),
});
export type ContextDiff = z.infer<typeof ContextDiffSchema>;

/**
 * `current` holds, for a saved path, its hash on disk now or null when the file is missing; a path absent
 * from `current` could not be compared (e.g. too large to hash) and counts as untracked.
 */
export function diffTrackedFiles(
  saved: readonly FileAccess[],
  current: ReadonlyMap<string, string | null>,
  newFiles: readonly string[],
): ContextDiff {
  const diff: ContextDiff = { modified: [], deleted: [], unchanged: [], untracked: [], added: [] };
  const seen = new Set<string>();
  for (const file of saved) {
    if (!file.inProject || seen.has(file.path)) continue;
    seen.add(file.path);
    const now = current.get(file.path);
    if (file.contentHash === null || now === undefined) diff.untracked.push(file.path);
    else if (now === null) diff.deleted.push(file.path);
    else if (now === file.contentHash) diff.unchanged.push(file.path);
    else diff.modified.push(file.path);
  }
  const everSaved = new Set(saved.map((file) => file.path));
  diff.added = [...new Set(newFiles)].filter((path) => !everSaved.has(path));
  for (const list of Object.values(diff)) list.sort();
  return diff;
}
