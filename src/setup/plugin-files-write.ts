// Writes the checked-in marketplace file at the repository root from src/core/setup/plugin-files.ts (the plugin's
// own files are the build's: ./plugin-folder.ts). Run after changing it (a test fails until the file matches), then
// let biome lay it out:
//   node -e 'import("./src/setup/plugin-files-write.ts").then((m) => m.writeMarketplaceFiles("."))'
//   npx biome check --write .claude-plugin
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type PluginMeta, renderMarketplaceFiles } from "../core/setup/plugin-files.ts";
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

export async function writeMarketplaceFiles(repoRoot: string): Promise<string[]> {
  const files = renderMarketplaceFiles(await readPluginMeta(repoRoot));
  return writeRepositoryFiles(repoRoot, files);
}
