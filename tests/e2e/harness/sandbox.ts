// A throwaway world for one end-to-end test: a temp HOME (with `.claude/`), a temp git repo as the project,
// and a child-process environment that sees only them (no inherited ANTHROPIC_*, CLAUDE_*, CTX_* or git
// variables), with helpers to run the built `ctx` and the real `claude` there.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI; `pnpm test` builds it before vitest runs. */
export const CTX_BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../../dist/ctx.js");

export interface Sandbox {
  /** Holds everything below; removed by `cleanup`. */
  root: string;
  home: string;
  project: string;
  ctxHome: string;
  /** On PATH after Node; holds `ctx` (a symlink to the built CLI) unless `ctxOnPath` was false. */
  binDir: string;
  claudeBin: string | undefined;
  /** The environment for child processes. */
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export interface SandboxOptions {
  /** The Claude Code binary `runClaude` uses (from `ensureClaudeCli`). */
  claudeBin?: string | undefined;
  /** Create the project as a git repo with one empty commit (default true). */
  git?: boolean;
  /**
   * Put `ctx` on PATH as a symlink to dist/ctx.js, as a global install would (default true): `ctx init` then
   * writes plain `ctx` commands. With false it writes absolute `<node> <dist/ctx.js>` commands.
   */
  ctxOnPath?: boolean;
  /** Sets CTX_LOG_LEVEL for ctx processes, e.g. "debug". Unset by default. */
  ctxLogLevel?: string;
  /** Extra variables for every child (undefined removes one). */
  env?: Record<string, string | undefined>;
}

export interface ProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
}

export interface RunOptions {
  /** Default: the sandbox's project. */
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Default 90 s; then the whole process group is killed. */
  timeoutMs?: number;
}

// Not passed on: the developer's own Claude/ctx/git setup, and vitest's markers (NODE_ENV=test, VITEST*).
const DROPPED_PREFIXES = ["ANTHROPIC_", "CLAUDE", "CTX_", "MCP_", "GIT_", "XDG_", "OTEL_", "VITEST"];
const DROPPED_NAMES = ["ENABLE_TOOL_SEARCH", "FORCE_COLOR", "DEBUG", "NODE_OPTIONS", "NODE_ENV", "TEST"];

function childEnvironment(root: string, binDir: string, options: SandboxOptions): NodeJS.ProcessEnv {
  const home = join(root, "home");
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (DROPPED_PREFIXES.some((prefix) => name.startsWith(prefix)) || DROPPED_NAMES.includes(name)) continue;
    env[name] = value;
  }
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    // Node 24 (the test runner's) first: hooks and MCP servers that ctx init points at `node` must get it.
    PATH: [dirname(process.execPath), binDir, process.env.PATH ?? ""].join(delimiter),
    CTX_HOME: join(home, ".ctx"),
    // Claude Code keeps per-session scratch folders in $TMPDIR/claude-<uid>/: keep them in the sandbox too.
    TMPDIR: join(root, "tmp"),
    NO_COLOR: "1",
    // No telemetry, update checks or feature-flag fetches: tests reach nothing but 127.0.0.1.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  });
  if (options.ctxLogLevel !== undefined) env.CTX_LOG_LEVEL = options.ctxLogLevel;
  return mergeEnv(env, options.env);
}

function mergeEnv(base: NodeJS.ProcessEnv, extra: Record<string, string | undefined> | undefined): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // realpath: Claude Code keys projects by the resolved path (macOS /var -> /private/var).
  const root = await realpath(await mkdtemp(join(tmpdir(), "ctx-e2e-")));
  const home = join(root, "home");
  const project = join(root, "project");
  const binDir = join(root, "bin");
  await Promise.all([
    mkdir(join(home, ".claude"), { recursive: true }),
    mkdir(project),
    mkdir(binDir),
    mkdir(join(root, "tmp")),
  ]);
  // Its `#!/usr/bin/env node` finds the test runner's Node: it is first on the children's PATH.
  if (options.ctxOnPath ?? true) await symlink(CTX_BIN, join(binDir, "ctx"));
  const env = childEnvironment(root, binDir, options);
  const sandbox: Sandbox = {
    root,
    home,
    project,
    ctxHome: join(home, ".ctx"),
    binDir,
    claudeBin: options.claudeBin,
    env,
    // Retried: a detached child of a hook (SessionEnd's queued `ctx index --file`, a snapshot's recompression)
    // may still be writing below CTX_HOME for a moment after Claude Code exits (ENOTEMPTY, seen in CI).
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }),
  };
  if (options.git ?? true) await initGitRepo(sandbox, project);
  return sandbox;
}

/** Makes `dir` a git repo with one empty commit (identity given inline: the temp HOME has no gitconfig). */
export async function initGitRepo(sandbox: Sandbox, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const identity = ["-c", "user.name=ctx-test", "-c", "user.email=ctx-test@example.invalid"];
  for (const args of [
    ["init", "-q", "-b", "main"],
    [...identity, "commit", "-q", "--allow-empty", "-m", "init"],
  ]) {
    const result = await runProcess("git", args, sandbox.env, { cwd: dir });
    if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  }
}

/** Runs a command to completion, capturing output. The child leads its own process group so a timeout
 * also ends what it spawned (MCP servers, hooks). */
export function runProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: RunOptions & { cwd: string },
): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: mergeEnv(env, options.env),
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    }, options.timeoutMs ?? 90_000);
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    if (options.input !== undefined) child.stdin?.end(options.input);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolvePromise({ stdout, stderr, exitCode, signal, timedOut, durationMs: Date.now() - started });
    });
  });
}

/** Runs the built `ctx` with the test runner's Node. */
export function runCtx(sandbox: Sandbox, args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  if (!existsSync(CTX_BIN)) throw new Error(`${CTX_BIN} is missing: run \`pnpm build\` first (\`pnpm test\` does)`);
  return runProcess(process.execPath, [CTX_BIN, ...args], sandbox.env, {
    ...options,
    cwd: options.cwd ?? sandbox.project,
  });
}

/** Runs the real `claude`; stdin is /dev/null unless `input` is given. */
export function runClaude(sandbox: Sandbox, args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  if (sandbox.claudeBin === undefined) throw new Error("this sandbox was created without claudeBin");
  return runProcess(sandbox.claudeBin, args, sandbox.env, { ...options, cwd: options.cwd ?? sandbox.project });
}

async function readJsonObject(path: string): Promise<Record<string, unknown>> {
  if (!existsSync(path)) return {};
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Approves `.mcp.json` servers the way a user would in the trust dialog, which `claude mcp list` needs
 * (`-p` runs load project servers without it): `enabledMcpjsonServers` in the project's
 * `.claude/settings.local.json` (merged) and the project trusted in `$HOME/.claude.json`.
 */
export async function approveProjectMcpServers(
  sandbox: Sandbox,
  names: readonly string[] = ["ctx"],
  projectDir: string = sandbox.project,
): Promise<void> {
  const localPath = join(projectDir, ".claude", "settings.local.json");
  const local = await readJsonObject(localPath);
  const enabled = Array.isArray(local.enabledMcpjsonServers) ? (local.enabledMcpjsonServers as string[]) : [];
  await writeJson(localPath, { ...local, enabledMcpjsonServers: [...new Set([...enabled, ...names])] });

  const globalPath = join(sandbox.home, ".claude.json");
  const global = await readJsonObject(globalPath);
  const projects = (global.projects ?? {}) as Record<string, Record<string, unknown>>;
  projects[projectDir] = { ...projects[projectDir], hasTrustDialogAccepted: true };
  await writeJson(globalPath, { ...global, projects });
}
