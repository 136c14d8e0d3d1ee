// Writes the wiring `pnpm build` makes from the hook table (src/core/setup/built-wiring.ts): build/wiring-files.ts runs it.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { renderBuiltWiringFiles } from "../core/setup/built-wiring.ts";
import { assertAllInside } from "../store/files/contained-path.ts";

export async function writeBuiltWiringFiles(repoRoot: string): Promise<string[]> {
  const files = renderBuiltWiringFiles();
  // A checkout under review may hold links that leave it: checked before the first write, like `ctx init`.
  await assertAllInside(repoRoot, Object.keys(files), { label: "the repository" });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(repoRoot, path)), { recursive: true });
    await writeFile(join(repoRoot, path), content);
  }
  return Object.keys(files);
}
