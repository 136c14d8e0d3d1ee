// Reads the CLAUDE.md cascade Claude Code loads for a project (docs/claude-code-facts.md "CLAUDE.md and auto memory"):
// the user's `<CLAUDE_CONFIG_DIR or ~/.claude>/CLAUDE.md`, the project's `./CLAUDE.md` and `./.claude/CLAUDE.md`, and
// `./CLAUDE.local.md`, with their `@path` imports; then the rules marked (ENFORCED) or (CRITICAL). Synchronous reads of
// a few small files: cheap enough for PreCompact and the CLI.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { claudeConfigDir, homeOf } from "../../config/claude-paths.ts";
import { type Cascade, type CascadeRoot, resolveCascade } from "../../core/rules/claude-md.ts";

/** Claude Code skips CLAUDE.md files over 4 MiB. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export function claudeMdRoots(projectRoot: string, env: NodeJS.ProcessEnv): CascadeRoot[] {
  return [
    { path: join(claudeConfigDir(env), "CLAUDE.md"), scope: "global" },
    { path: join(projectRoot, "CLAUDE.md"), scope: "project" },
    { path: join(projectRoot, ".claude", "CLAUDE.md"), scope: "project" },
    { path: join(projectRoot, "CLAUDE.local.md"), scope: "local" },
  ];
}

function readSmallText(path: string): string | null {
  try {
    const info = statSync(path);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export function discoverClaudeMdRules(projectRoot: string, env: NodeJS.ProcessEnv): Cascade {
  return resolveCascade(claudeMdRoots(projectRoot, env), readSmallText, homeOf(env));
}
