// Writes files ctx renders into this repository (the plugin's, its own wiring, the build's wiring): every path is
// checked first, so a checkout under review whose links lead out of it gets nothing written, like `ctx init`.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { assertAllInside } from "../store/files/contained-path.ts";

/** Writes `files` (repository-relative path -> content) under `repoRoot`; returns their paths. */
export async function writeRepositoryFiles(repoRoot: string, files: Record<string, string>): Promise<string[]> {
  await assertAllInside(repoRoot, Object.keys(files), { label: "the repository" });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(repoRoot, path)), { recursive: true });
    await writeFile(join(repoRoot, path), content);
  }
  return Object.keys(files);
}
