// Writes the repository's own checked-in Claude Code wiring from src/core/setup/self-wiring.ts. Run after changing
// /fork-detect or the MCP entry (a test fails until the checked-in files match; .claude/settings.json is the build's:
// src/core/setup/built-wiring.ts), then let biome lay them out:
//   node -e 'import("./src/setup/self-wiring-write.ts").then((m) => m.writeSelfWiringFiles("."))'
//   npx biome check --write .mcp.json .claude
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { renderSelfWiringFiles } from "../core/setup/self-wiring.ts";
import { assertAllInside } from "../store/files/contained-path.ts";

export async function writeSelfWiringFiles(repoRoot: string): Promise<string[]> {
  const files = renderSelfWiringFiles();
  // A checkout under review may hold links that leave it: checked before the first write, like `ctx init`.
  await assertAllInside(repoRoot, Object.keys(files), { label: "the repository" });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(repoRoot, path)), { recursive: true });
    await writeFile(join(repoRoot, path), content);
  }
  return Object.keys(files);
}
