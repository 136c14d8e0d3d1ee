// The adversarial suite's tools (issue #21): a world of folders like a user's (home, CTX_HOME, Claude Code's folder,
// a cloned repository), the built ctx run as the current user or as a throwaway unprivileged one, and a listing of a
// tree with every entry's type and mode, so a probe can assert that nothing outside ctx's folders changed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { assertBuilt, CTX_BIN, type ProcessResult, runProcess } from "../e2e/ctx-process.ts";

/** The uid and gid of the throwaway user (nobody's on Debian); only root can become it. */
export const UNPRIVILEGED_ID = 65_534;

/** Whether probes can also run as an unprivileged user: this process is root and `setpriv` is there. */
export const canRunUnprivileged: boolean = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync("setpriv", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** Who runs ctx in a probe: this process's user, or the throwaway one (root only). */
export type Runner = "current" | "unprivileged";

/** The runners a probe should try here: always the current user, and the unprivileged one when possible. */
export const RUNNERS: readonly Runner[] = canRunUnprivileged ? ["current", "unprivileged"] : ["current"];

export interface World {
  /** The folder holding everything below; removed by `cleanup`. */
  base: string;
  home: string;
  ctxHome: string;
  claudeDir: string;
  /** A cloned repository: untrusted input. */
  repo: string;
  /** The environment every ctx process of this world runs with. */
  env: NodeJS.ProcessEnv;
  runner: Runner;
  cleanup(): void;
}

/**
 * A fresh world, owned by the runner. For the unprivileged runner it lives directly in /tmp (the test run's own
 * temp folder is root's 0700 one, which that user cannot enter).
 */
export function makeWorld(runner: Runner, name = "probe"): World {
  const parent = runner === "unprivileged" ? "/tmp" : tmpdir();
  const base = mkdtempSync(join(parent, `ctx-adversarial-${name}-`));
  const home = join(base, "home");
  const ctxHome = join(home, ".ctx");
  const claudeDir = join(home, ".claude");
  const repo = join(base, "repo");
  for (const dir of [home, claudeDir, join(claudeDir, "projects"), repo]) mkdirSync(dir, { recursive: true });
  if (runner === "unprivileged") chownTree(base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    CTX_HOME: ctxHome,
    CLAUDE_CONFIG_DIR: claudeDir,
    CTX_ARCHIVE__ENABLED: "false",
    CTX_LOG_LEVEL: "warn",
    NO_COLOR: "1",
  };
  return {
    base,
    home,
    ctxHome,
    claudeDir,
    repo,
    env,
    runner,
    // Retried: a detached child of a hook (a snapshot's recompression, SessionEnd's queued index) may still be
    // writing below the world for a moment after the hook returned (ENOTEMPTY, seen in CI).
    cleanup: () => rmSync(base, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }),
  };
}

/** Gives a tree to `uid` (what a user's own files look like), links included. */
export function chownTree(root: string, uid: number, gid: number): void {
  const stat = lstatSync(root);
  if (stat.isDirectory()) for (const entry of readdirSync(root)) chownTree(join(root, entry), uid, gid);
  try {
    chownSync(root, uid, gid);
  } catch {
    // a link's target may be elsewhere; lchown is enough for the listing
  }
}

let privilegeArgs: string[] | undefined;

/** setpriv's arguments; with the read-and-search capability only when the plain user cannot reach ctx's build. */
function unprivilegedPrefix(): string[] {
  if (privilegeArgs) return privilegeArgs;
  const plain = ["--reuid", String(UNPRIVILEGED_ID), "--regid", String(UNPRIVILEGED_ID), "--clear-groups"];
  try {
    execFileSync("setpriv", [...plain, process.execPath, CTX_BIN, "--version"], { stdio: "ignore", cwd: "/" });
    privilegeArgs = plain;
  } catch {
    // The checkout or Node lives in a folder that user cannot read (root's home): let it read, never write.
    privilegeArgs = [...plain, "--inh-caps", "+dac_read_search", "--ambient-caps", "+dac_read_search"];
  }
  return privilegeArgs;
}

/** The command and arguments that start the built ctx as the world's runner (for an MCP client's transport). */
export function ctxCommand(world: World, args: readonly string[]): { command: string; args: string[] } {
  assertBuilt();
  if (world.runner === "unprivileged") {
    return { command: "setpriv", args: [...unprivilegedPrefix(), process.execPath, CTX_BIN, ...args] };
  }
  return { command: process.execPath, args: [CTX_BIN, ...args] };
}

/** The environment a world's ctx process gets (PATH and TMPDIR as here, then the world's own). */
export function worldEnv(world: World, extra: NodeJS.ProcessEnv = {}): Record<string, string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    TMPDIR: world.base,
    ...world.env,
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Runs the built ctx in `world` as its runner; stdout, stderr and the exit code come back whole. */
export function runCtxIn(
  world: World,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string | Buffer; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  const { command, args: argv } = ctxCommand(world, args);
  return runProcess(command, argv, {
    cwd: options.cwd ?? world.repo,
    env: worldEnv(world, options.env),
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/**
 * One line per entry below `root` (root itself included): its type, mode, owner, and a hash of a regular file's
 * bytes or a link's target. Entries under any of `skip` (paths relative to root, e.g. ctx's own folders) are left
 * out, so that what ctx may change there does not hide a change elsewhere.
 */
export function listTree(root: string, skip: readonly string[] = []): string[] {
  const lines: string[] = [];
  const walk = (path: string): void => {
    const rel = relative(root, path) || ".";
    if (skip.some((s) => rel === s || rel.startsWith(`${s}/`))) return;
    const stat = lstatSync(path);
    const mode = (stat.mode & 0o7777).toString(8).padStart(4, "0");
    const owner = `${stat.uid}:${stat.gid}`;
    if (stat.isSymbolicLink()) lines.push(`l ${mode} ${owner} ${rel} -> ${readlinkSync(path)}`);
    else if (stat.isDirectory()) {
      lines.push(`d ${mode} ${owner} ${rel}`);
      for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    } else if (stat.isFile()) {
      const hash = createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);
      lines.push(`f ${mode} ${owner} ${rel} ${stat.size} ${hash}`);
    } else {
      const kind = stat.isFIFO() ? "p" : stat.isSocket() ? "s" : stat.isCharacterDevice() ? "c" : "b";
      lines.push(`${kind} ${mode} ${owner} ${rel} ${stat.rdev}`);
    }
  };
  walk(root);
  return lines;
}

/** The lines of `after` not in `before` and those gone, marked + and -; empty when nothing changed. */
export function treeChanges(before: readonly string[], after: readonly string[]): string[] {
  const was = new Set(before);
  const now = new Set(after);
  return [
    ...before.filter((line) => !now.has(line)).map((l) => `- ${l}`),
    ...after.filter((l) => !was.has(l)).map((l) => `+ ${l}`),
  ];
}

/** Whether `text` holds a byte that a terminal acts on: ESC, another C0 control but newline and tab, DEL, or C1. */
export function holdsTerminalControl(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
