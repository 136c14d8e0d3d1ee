// Where ctx keeps things: the per-project `.ctx/` folder and the global home (`~/.ctx`, or CTX_HOME).
import { existsSync, lstatSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { quoteShellWord } from "../core/shell/quote.ts";
import { CtxError } from "../errors.ts";

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

/** `--project <dir>` as given by a person: resolved, and it must be an existing folder. */
export function requireProjectDir(cwd: string, given: string): string {
  const dir = resolve(cwd, given);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CtxError("NOT_FOUND", `project folder ${dir} does not exist or is not a folder`, {
      hint: "pass an existing folder to --project, or run ctx from inside the project",
    });
  }
  return assertProjectCtxNotLinked(dir);
}

/**
 * Refuses a project whose `.ctx` is a symbolic link (UNSAFE_PATH): git can commit one, and hooks run in every
 * repository a plugin user opens, so following it would read and write a folder of the committer's choosing.
 * Returns the project folder. Checked wherever a project is resolved, so no command, tool or hook acts on it.
 */
export function assertProjectCtxNotLinked(projectRoot: string): string {
  const ctxDir = join(projectRoot, PROJECT_DIR_NAME);
  if (lstatSync(ctxDir, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new CtxError("UNSAFE_PATH", `${ctxDir} is a symbolic link; ctx never follows one for its state`, {
      hint: `remove the link (\`rm ${quoteShellWord(ctxDir)}\`); ctx makes its own private folder there on first use`,
    });
  }
  return projectRoot;
}

/**
 * The user's home: $HOME, else the operating system's answer. `node:os` is loaded only in that case: every hook
 * process resolves a home, and loading it has a cost (bench/run.ts hooks, builtinCostMs).
 */
export function homeOf(env: NodeJS.ProcessEnv): string {
  if (env.HOME !== undefined && env.HOME !== "") return env.HOME;
  // process.getBuiltinModule arrived in Node 22.3; before it, the home the environment names is all there is.
  return process.getBuiltinModule?.("node:os").homedir() ?? env.USERPROFILE ?? "/";
}

export function ctxHome(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.CTX_HOME;
  if (fromEnv !== undefined && fromEnv !== "") return resolve(fromEnv);
  return join(homeOf(env), ".ctx");
}

/**
 * The project a command or hook works on: CLAUDE_PROJECT_DIR when Claude Code set it (it does not follow
 * `cd`), else the nearest ancestor of `cwd` holding `.ctx/` or `.git`, else `cwd` itself. The global
 * home (`~/.ctx`) is not a project's `.ctx/`: without this, every folder under HOME would be "in" HOME.
 */
export function findProjectRoot(cwd: string, env: NodeJS.ProcessEnv): string {
  const fromClaude = env.CLAUDE_PROJECT_DIR;
  if (fromClaude !== undefined && fromClaude !== "") return assertProjectCtxNotLinked(resolve(fromClaude));
  const globalHome = ctxHome(env);
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    const ctxDir = join(dir, PROJECT_DIR_NAME);
    if ((ctxDir !== globalHome && existsSync(ctxDir)) || existsSync(join(dir, ".git")))
      return assertProjectCtxNotLinked(dir);
    const parent = dirname(dir);
    if (parent === dir) return assertProjectCtxNotLinked(start);
    dir = parent;
  }
}
