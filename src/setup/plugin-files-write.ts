// Writes the checked-in Claude Code plugin files at the repository root from src/core/setup/plugin-files.ts. Run after
// changing /fork-detect or the manifest (a test fails until the checked-in files match; hooks/hooks.json is the
// build's: src/core/setup/built-wiring.ts), then let biome lay them out:
//   node -e 'import("./src/setup/plugin-files-write.ts").then((m) => m.writePluginFiles("."))'
//   npx biome check --write .claude-plugin commands
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type PluginMeta, renderPluginFiles } from "../core/setup/plugin-files.ts";
import { assertAllInside } from "../store/files/contained-path.ts";

const AUTHOR = "ctx contributors";

export async function readPluginMeta(repoRoot: string): Promise<PluginMeta> {
  const pkg = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as Record<string, string>;
  return {
    name: String(pkg.name),
    version: String(pkg.version),
    description: String(pkg.description),
    license: String(pkg.license),
    author: AUTHOR,
  };
}

export async function writePluginFiles(repoRoot: string): Promise<string[]> {
  const files = renderPluginFiles(await readPluginMeta(repoRoot));
  // A checkout under review may hold links that leave it: checked before the first write, like `ctx init`.
  await assertAllInside(repoRoot, Object.keys(files), { label: "the repository" });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(repoRoot, path)), { recursive: true });
    await writeFile(join(repoRoot, path), content);
  }
  return Object.keys(files);
}
