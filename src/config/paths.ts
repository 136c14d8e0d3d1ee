// Where ctx keeps things: the per-project `.ctx/` folder and the global home (`~/.ctx`, or CTX_HOME).
import { lstatSync, type Stats, statSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { quoteShellWord } from "../core/shell/quote.ts";
import { CtxError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";

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
  return assertOwnProjectCtx(dir);
}

/**
 * Refuses a project whose `.ctx` is a symbolic link (UNSAFE_PATH): git can commit one, and hooks run in every
 * repository a plugin user opens, so following it would read and write a folder of the committer's choosing.
 * Refuses one that belongs to another user too (see isOwnMarker): its config is theirs, and state written there
 * would sit in a folder they control. Returns the project folder. Checked wherever a project is resolved, so no
 * command, tool or hook acts on it.
 */
export function assertOwnProjectCtx(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const ctxDir = join(projectRoot, PROJECT_DIR_NAME);
  const stat = lstatSync(ctxDir, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) {
    throw new CtxError("UNSAFE_PATH", `${ctxDir} is a symbolic link; ctx never follows one for its state`, {
      hint: `remove the link (\`rm ${quoteShellWord(ctxDir)}\`); ctx makes its own private folder there on first use`,
    });
  }
  if (stat !== undefined && !isOwnMarker(stat, env)) {
    throw new CtxError("UNSAFE_PATH", `${ctxDir} belongs to another user (uid ${stat.uid}); ctx does not use it`, {
      hint: `it is not your project's folder: work in a folder of your own, or have it removed (\`rm -r ${quoteShellWord(ctxDir)}\`)`,
    });
  }
  return projectRoot;
}

/**
 * Whether a `.ctx` or `.git` makes its folder this user's project, as git's safe.directory decides: it belongs to
 * this user or to root (and, for root under sudo, to the user who ran sudo). Another local user can make a
 * `.ctx/` in any folder above yours they can write to (/tmp, a shared 0777 folder); taking it would apply their
 * config and put your state in their folder. Where there are no uids (Windows) every marker counts.
 */
function isOwnMarker(stat: Stats, env: NodeJS.ProcessEnv): boolean {
  const uid = process.getuid?.();
  if (uid === undefined || stat.uid === uid || stat.uid === 0) return true;
  return uid === 0 && env.SUDO_UID !== undefined && /^\d+$/.test(env.SUDO_UID) && stat.uid === Number(env.SUDO_UID);
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

/** Node's code cache for ctx (bin/hook-fast-path.ts); Node keeps a folder per Node version in it. */
export function compileCacheDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "cache", "node-compile");
}

/** Where a project was found, and the markers on the way that were another user's and so passed over. */
export interface ProjectSearch {
  root: string;
  /** `.ctx` or `.git` paths not owned by this user (or root), nearest first: ignored as if absent. */
  foreign: string[];
}

/**
 * The project a command or hook works on: CLAUDE_PROJECT_DIR when Claude Code set it (it does not follow
 * `cd`), else the nearest ancestor of `cwd` holding `.ctx/` or `.git` of this user's (isOwnMarker), else `cwd`
 * itself. The global home (`~/.ctx`) is not a project's `.ctx/`: without this, every folder under HOME would be
 * "in" HOME. Another user's marker is passed over and the search goes on upward, as if that folder had none (git
 * stops there instead; going on finds the project the person meant, and the one folder it may end on is checked
 * again by assertOwnProjectCtx). One stderr line per process names what was passed over (`warn` replaces
 * it; `ctx doctor` shows it as a finding through searchProjectRoot); a hook's stdout stays its reply.
 */
export function findProjectRoot(
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: { warn?: (line: string) => void } = {},
): string {
  const search = searchProjectRoot(cwd, env);
  if (search.foreign.length > 0) warnForeignOnce(search.foreign, options.warn);
  return search.root;
}

/** findProjectRoot's search, saying nothing: the root and the other users' markers it passed over. */
export function searchProjectRoot(cwd: string, env: NodeJS.ProcessEnv): ProjectSearch {
  const fromClaude = env.CLAUDE_PROJECT_DIR;
  if (fromClaude !== undefined && fromClaude !== "") {
    return { root: assertOwnProjectCtx(resolve(fromClaude), env), foreign: [] };
  }
  const globalHome = ctxHome(env);
  const foreign: string[] = [];
  // One lstat per marker and folder: the same count existsSync made (bench/run.ts hooks).
  const isMarker = (path: string, isCtxDir: boolean): boolean => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return false;
    // A linked `.ctx` counts, so that assertOwnProjectCtx refuses it rather than it being passed over.
    if ((isCtxDir && stat.isSymbolicLink()) || isOwnMarker(stat, env)) return true;
    foreign.push(path);
    return false;
  };
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    const ctxDir = join(dir, PROJECT_DIR_NAME);
    if ((ctxDir !== globalHome && isMarker(ctxDir, true)) || isMarker(join(dir, ".git"), false)) {
      return { root: assertOwnProjectCtx(dir, env), foreign };
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: assertOwnProjectCtx(start, env), foreign };
    dir = parent;
  }
}

let saidForeign = false;

function warnForeignOnce(foreign: readonly string[], warn: ((line: string) => void) | undefined): void {
  if (saidForeign) return;
  saidForeign = true;
  const line =
    `ctx: ignored ${foreign.join(", ")}: another user's, so not your project's (ctx uses only a .ctx or .git ` +
    "that belongs to you or root)";
  (warn ?? writeStderrLine)(line);
}

/** Straight to descriptor 2, synchronously: a hook never builds process.stderr (a stream, milliseconds to make) and
 *  exits right after its reply, before a stream's write would land (src/bin/hook-fast-path.ts). */
function writeStderrLine(line: string): void {
  try {
    writeSync(2, `${sanitizeLogLine(line)}\n`);
  } catch {
    // nobody reads stderr any more: the line was only a note
  }
}
