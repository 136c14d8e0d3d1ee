// Where ctx keeps things: the per-project `.ctx/` folder and the global home (`~/.ctx`, or CTX_HOME).
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const PROJECT_DIR_NAME = ".ctx";

export interface ProjectPaths {
  root: string;
  ctxDir: string;
  config: string;
  state: string;
  sessions: string;
  checkpoints: string;
  snapshots: string;
}

export function projectPaths(root: string): ProjectPaths {
  const ctxDir = join(root, PROJECT_DIR_NAME);
  return {
    root,
    ctxDir,
    config: join(ctxDir, "config.json"),
    state: join(ctxDir, "state.ctx"),
    sessions: join(ctxDir, "sessions.ctx"),
    checkpoints: join(ctxDir, "checkpoints"),
    snapshots: join(ctxDir, "snapshots"),
  };
}

export function ctxHome(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.CTX_HOME;
  if (fromEnv !== undefined && fromEnv !== "") return resolve(fromEnv);
  return join(env.HOME ?? homedir(), ".ctx");
}

/**
 * The project a command or hook works on: CLAUDE_PROJECT_DIR when Claude Code set it (it does not follow
 * `cd`), else the nearest ancestor of `cwd` holding `.ctx/` or `.git`, else `cwd` itself.
 */
export function findProjectRoot(cwd: string, env: NodeJS.ProcessEnv): string {
  const fromClaude = env.CLAUDE_PROJECT_DIR;
  if (fromClaude !== undefined && fromClaude !== "") return resolve(fromClaude);
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, PROJECT_DIR_NAME)) || existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
