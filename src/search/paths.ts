// Where the session index reads from and writes to: Claude Code's user folder (whose `projects/` holds
// the transcripts) and ctx's index file. Precedence: an explicit --claude-dir, then CLAUDE_CONFIG_DIR, then ~/.claude.
import { join, resolve } from "node:path";
import { claudeConfigDir } from "../config/claude-paths.ts";
import { ctxHome } from "../config/paths.ts";

export function resolveClaudeDir(options: { claudeDir?: string | undefined; env: NodeJS.ProcessEnv }): string {
  if (options.claudeDir !== undefined && options.claudeDir !== "") return resolve(options.claudeDir);
  return claudeConfigDir(options.env);
}

/** `<CTX_HOME>/index.db` (CTX_HOME defaults to ~/.ctx). */
export function resolveIndexPath(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "index.db");
}
