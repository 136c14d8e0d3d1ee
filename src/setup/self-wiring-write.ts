// Writes the repository's own checked-in Claude Code wiring from src/core/setup/self-wiring.ts. Run after changing
// /fork-detect or the MCP entry (a test fails until the checked-in files match; .claude/settings.json is the build's:
// src/core/setup/built-wiring.ts), then let biome lay them out:
//   node -e 'import("./src/setup/self-wiring-write.ts").then((m) => m.writeSelfWiringFiles("."))'
//   npx biome check --write .mcp.json .claude
import { renderSelfWiringFiles } from "../core/setup/self-wiring.ts";
import { writeRepositoryFiles } from "./repository-files.ts";

export async function writeSelfWiringFiles(repoRoot: string): Promise<string[]> {
  const files = renderSelfWiringFiles();
  return writeRepositoryFiles(repoRoot, files);
}
