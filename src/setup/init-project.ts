// The I/O shell of `ctx init`: read the project's files, plan with src/core/setup/init/plan.ts, then write the
// planned changes atomically. `planProjectInit` is exported for tests that check the result with the
// real `claude doctor` / `claude mcp list`. A committed link must not turn init against files outside the
// repository (`.gitignore -> ~/.bashrc`, `.claude -> ~/.claude`): every path init reads or writes is resolved
// with store/files/contained-path.ts first, and one that leads out stops the run before anything is read or written.

import { chmod, lstat, mkdir, readdir, readFile, readlink, rmdir, stat, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { CommandChoice } from "../core/setup/init/command-choice.ts";
import type { HookWiring } from "../core/setup/init/hooks-spec.ts";
import {
  CTX_DIR_ENTRY,
  type CtxDirFacts,
  INIT_FILES,
  type InitFileKey,
  type InitMode,
  type PlannedChange,
  type ProjectSnapshot,
  planInit,
} from "../core/setup/init/plan.ts";
import { CtxError } from "../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "../store/files/atomic-write.ts";
import { assertAllInside } from "../store/files/contained-path.ts";
import { resolveCtxCommand } from "./resolve-command.ts";
import { describeSelf, type SelfInfo } from "./self.ts";

export interface InitOptions {
  mode: InitMode;
  env: NodeJS.ProcessEnv;
  /** `--command`: the command to write instead of the one found on PATH. */
  command?: string;
  /** This program; defaults to the installed package. */
  self?: SelfInfo;
  /** `--statusline` (and `--force` to replace another status line). */
  statusLine?: boolean;
  force?: boolean;
  /** `--hooks mcp|command`: how PostToolUse reaches ctx (default mcp: through its MCP server, no process). */
  hooks?: HookWiring;
}

export interface InitResult {
  project: string;
  mode: InitMode;
  command: CommandChoice;
  changes: PlannedChange[];
  warnings: string[];
}

// Repository files people read and commit; writeFileAtomic makes 0600 files, which suits ctx's own state only.
const NEW_FILE_MODE = 0o644;

const INSIDE = { label: "the repository" };

/** Every path init may read or write, relative to the project. */
const INIT_PATHS: readonly string[] = [...Object.values(INIT_FILES), CTX_DIR_ENTRY.replace(/\/$/, "")];

export async function readProjectSnapshot(projectDir: string): Promise<ProjectSnapshot> {
  const files = {} as Record<InitFileKey, string | null>;
  const linked: InitFileKey[] = [];
  for (const key of Object.keys(INIT_FILES) as InitFileKey[]) {
    const path = join(projectDir, INIT_FILES[key]);
    files[key] = await readTextOrNull(path, INIT_FILES[key]);
    if ((await lstat(path).catch(() => null))?.isSymbolicLink()) linked.push(key);
  }
  return { files, linked, ctxDir: await inspectCtxDir(join(projectDir, CTX_DIR_ENTRY.replace(/\/$/, ""))) };
}

/**
 * For `ctx doctor`: the project's files as init sees them, and the refusal init would give when one leads out of
 * the repository (then no file is read: all count as absent, so a link to a device cannot hang doctor either).
 */
export async function inspectProjectFiles(
  project: string,
): Promise<{ snapshot: ProjectSnapshot; linkOut: CtxError | null }> {
  try {
    await assertAllInside(project, INIT_PATHS, INSIDE);
  } catch (error) {
    if (!(error instanceof CtxError) || error.code !== "UNSAFE_PATH") throw error;
    const files = Object.fromEntries(Object.keys(INIT_FILES).map((key) => [key, null])) as ProjectSnapshot["files"];
    return { snapshot: { files, ctxDir: await inspectCtxDir(join(project, ".ctx")) }, linkOut: error };
  }
  return { snapshot: await readProjectSnapshot(project), linkOut: null };
}

async function inspectCtxDir(path: string): Promise<CtxDirFacts> {
  const info = await stat(path).catch(() => null);
  if (info?.isDirectory()) return { kind: "folder", mode: process.platform !== "win32" ? info.mode & 0o777 : null };
  if (info !== null) return { kind: "other", path, what: info.isFile() ? "a file" : "a special file" };
  // stat follows links: nothing there, or a link to nothing (which mkdir could not replace either).
  const link = await lstat(path).catch(() => null);
  if (link === null) return { kind: "missing" };
  return { kind: "other", path, what: "a symbolic link to something that does not exist" };
}
/** Everything `ctx init` would do in `projectDir`, without writing anything. */
export async function planProjectInit(projectDir: string, options: InitOptions): Promise<InitResult> {
  const project = await requireProjectDir(projectDir);
  await assertAllInside(project, INIT_PATHS, INSIDE);
  const resolved = resolveCtxCommand(options.env, options.self ?? describeSelf(options.env), options.command);
  const snapshot = await readProjectSnapshot(project);
  const changes = planInit(snapshot, options.mode, resolved.choice, {
    statusLine: options.statusLine === true,
    force: options.force === true,
    hooks: options.hooks ?? "mcp",
  });
  // The warnings are about what install writes; --remove writes no command.
  const warnings = options.mode === "install" ? resolved.warnings : [];
  return { project, mode: options.mode, command: resolved.choice, changes, warnings };
}

/** Writes the plan; every path is checked to stay inside the project before the first write (nothing half-done). */
export async function applyInitPlan(projectDir: string, changes: readonly PlannedChange[]): Promise<void> {
  const root = resolve(projectDir);
  const todo = changes.filter((change) => change.operation !== undefined);
  const targets = await assertAllInside(
    root,
    todo.map((change) => change.file.replace(/\/$/, "")),
    INSIDE,
  );
  const emptied = new Set<string>();
  for (const [i, change] of todo.entries()) {
    const path = join(root, change.file);
    const operation = change.operation;
    if (operation === undefined) continue;
    if (operation.kind === "private-dir") {
      await ensurePrivateDir(path);
    } else if (operation.kind === "delete") {
      await unlink(path).catch(ignoreMissing);
      emptied.add(dirname(path));
    } else {
      // Through a symbolic link (one that stays inside) to its target: the atomic rename would otherwise replace
      // the link itself.
      const target = targets[i] ?? path;
      const before = await stat(target).catch(() => null);
      await mkdir(dirname(target), { recursive: true });
      await writeFileAtomic(target, operation.content);
      if (process.platform !== "win32") await chmod(target, before ? before.mode & 0o7777 : NEW_FILE_MODE);
    }
  }
  // `.claude/commands/` and `.claude/` go when removing ctx's files left them empty, and only then.
  for (const folder of [...emptied].sort((a, b) => b.length - a.length)) await removeEmptyFolders(folder, root);
}

/** The absolute project folder; NOT_FOUND when it is missing (init must not create a project by mistake). */
export async function requireProjectDir(projectDir: string): Promise<string> {
  const project = resolve(projectDir);
  const info = await stat(project).catch(() => null);
  if (!info?.isDirectory()) {
    throw new CtxError("NOT_FOUND", `project folder ${project} does not exist`, {
      hint: "run the command inside the project, or pass an existing folder with --project <dir>",
    });
  }
  return project;
}

async function removeEmptyFolders(folder: string, stopAt: string): Promise<void> {
  let dir = folder;
  while (dir !== stopAt && dir.startsWith(stopAt)) {
    // A linked folder is the person's, like a linked file.
    if ((await lstat(dir).catch(() => null))?.isSymbolicLink() !== false) return;
    const entries = await readdir(dir).catch(() => null);
    if (entries === null || entries.length > 0) return;
    await rmdir(dir).catch(ignoreMissing);
    dir = dirname(dir);
  }
}

/** A file's text, null when absent; INIT_CONFLICT (found while planning, so nothing is written) when unusable. */
async function readTextOrNull(path: string, file: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const nothingWritten = "then run the command again; nothing was written";
    if (code === "ENOENT") {
      const link = await readlink(path).catch(() => null);
      if (link === null) return null;
      throw new CtxError("INIT_CONFLICT", `${file} is a symbolic link to ${link}, which does not exist`, {
        hint: `create ${link} (ctx edits files through links) or remove the link, ${nothingWritten}`,
        cause: error,
      });
    }
    if (code === "EISDIR")
      throw new CtxError("INIT_CONFLICT", `${file} is a folder, not a file`, {
        hint: `move ${path} aside, ${nothingWritten}`,
        cause: error,
      });
    if (code === "ENOTDIR")
      throw new CtxError("INIT_CONFLICT", `${dirname(file)} is not a folder`, {
        hint: `move ${dirname(path)} aside (Claude Code expects a folder there), ${nothingWritten}`,
        cause: error,
      });
    throw error;
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}
