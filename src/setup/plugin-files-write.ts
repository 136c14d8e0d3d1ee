// Writes the checked-in Claude Code plugin files at the repository root from src/core/setup/plugin-files.ts. Run after
// changing /fork-detect or the manifest (a test fails until the checked-in files match; hooks/hooks.json is the
// build's: src/core/setup/built-wiring.ts), then let biome lay them out:
//   node -e 'import("./src/setup/plugin-files-write.ts").then((m) => m.writePluginFiles("."))'
//   npx biome check --write .claude-plugin commands
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type PluginMeta, renderPluginFiles } from "../core/setup/plugin-files.ts";
import { writeRepositoryFiles } from "./repository-files.ts";

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
  return writeRepositoryFiles(repoRoot, files);
}
