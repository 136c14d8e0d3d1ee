// `ctx diff` / `ctx_diff`: the saved context's tracked files against the disk now. Hashes the files the
// save hashed, and looks for files added since the save in the folders those files live in (one level,
// not recursive: a whole-tree walk would be slow on big repositories and mostly noise).
import { access, readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { PROJECT_DIR_NAME } from "../../config/paths.ts";
import { type ContextDiff, ContextDiffSchema, diffTrackedFiles } from "../../core/context/diff.ts";
import type { FileAccess } from "../../core/context/schema.ts";
import { hashFile } from "./capture.ts";
import type { ContextOpsDeps } from "./operations.ts";
import { loadState, type RestoreSource } from "./restore.ts";

/** Files hashed at once: each read may hold up to 8 MiB in memory. */
const HASH_CONCURRENCY = 16;

export interface ContextDiffResult {
  origin: string;
  /** When the compared state was extracted (its `extractedAt`). */
  savedAt: string;
  diff: ContextDiff;
}

/** The `ctx diff --json` output and the ctx_diff result; `found: false`, with empty lists, when nothing is saved. */
export const DiffReportSchema = z.object({
  found: z.boolean(),
  origin: z.nullable(z.string()),
  /** When the compared state was extracted (its `extractedAt`). */
  savedAt: z.nullable(z.string()),
  ...ContextDiffSchema.shape,
});
export type DiffReport = z.infer<typeof DiffReportSchema>;

export function diffReportOf(result: ContextDiffResult | null): DiffReport {
  if (result === null) {
    const none = { modified: [], deleted: [], unchanged: [], untracked: [], added: [] };
    return { found: false, origin: null, savedAt: null, ...none };
  }
  return { found: true, origin: result.origin, savedAt: result.savedAt, ...result.diff };
}

/** The diff of the state `source` names against the disk now; null when nothing is saved there. */
export async function diffContext(
  deps: ContextOpsDeps,
  source: RestoreSource = { kind: "current" },
): Promise<ContextDiffResult | null> {
  const loaded = await loadState(deps, source);
  if (loaded === null) return null;
  const { state } = loaded;
  const tracked = state.files.filter((file) => file.inProject);
  const current = await hashTrackedFiles(tracked);
  const added = await findFilesAddedSince(
    tracked.map((file) => file.path),
    Date.parse(state.extractedAt),
  );
  return { origin: loaded.origin, savedAt: state.extractedAt, diff: diffTrackedFiles(state.files, current, added) };
}

/** Hash now, or null when the file is missing; a file that exists but cannot be hashed is left out. */
async function hashTrackedFiles(files: readonly FileAccess[]): Promise<Map<string, string | null>> {
  const current = new Map<string, string | null>();
  const queue = files.filter((file) => file.contentHash !== null).map((file) => file.path);
  const worker = async () => {
    for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
      const hash = await hashFile(path);
      if (hash !== null) current.set(path, hash);
      else if (!(await exists(path))) current.set(path, null);
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
  return current;
}

/** Regular files modified after `sinceMs` in the folders holding `paths`; dot-files and `.ctx/` skipped. */
async function findFilesAddedSince(paths: readonly string[], sinceMs: number): Promise<string[]> {
  if (Number.isNaN(sinceMs)) return [];
  const known = new Set(paths);
  const folders = [...new Set(paths.map((path) => dirname(path)))].filter((dir) => !isInsideCtxDir(dir));
  const found = await Promise.all(
    folders.map(async (dir) => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      const candidates = entries
        .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
        .map((entry) => join(dir, entry.name))
        .filter((path) => !known.has(path));
      const recent = await Promise.all(
        candidates.map(async (path) => {
          const info = await stat(path).catch(() => null);
          return info !== null && info.mtimeMs > sinceMs ? path : null;
        }),
      );
      return recent.filter((path) => path !== null);
    }),
  );
  return found.flat();
}

function isInsideCtxDir(dir: string): boolean {
  return dir.split(/[\\/]/).includes(PROJECT_DIR_NAME);
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
