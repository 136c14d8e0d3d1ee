// The I/O shell of `ctx doctor`: gathers the facts (files, PATH, permissions, state files, config) and
// hands them to the pure checks in src/core/setup/doctor-*.ts.

import { existsSync, lstatSync, readdirSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { readCleanupPeriod } from "../config/claude-paths.ts";
import { defaultConfig } from "../config/defaults.ts";
import { globalConfigPath, loadConfig, readConfigLayers, validateLayers } from "../config/load.ts";
import { compileCacheDir, ctxHome, projectPaths } from "../config/paths.ts";
import { type ArchiveFacts, checkTranscriptArchive } from "../core/setup/doctor-archive.ts";
import {
  type ConfigCheck,
  checkConfig,
  checkCtxDir,
  checkForeignMarkers,
  checkLeftoverTempFiles,
  checkNode,
  checkPathCommands,
  checkPrivateModes,
  checkSessionIndex,
  checkStateFiles,
  type PrivateModeFact,
  type StateFileCheck,
} from "../core/setup/doctor-environment.ts";
import { checkProjectWiring } from "../core/setup/doctor-project.ts";
import { type Finding, fail } from "../core/setup/doctor-report.ts";
import { checkUserWiring, isCtxPluginEnabled } from "../core/setup/doctor-user.ts";
import { describeError, isCtxError } from "../errors.ts";
import { resolveIndexPath } from "../search/paths.ts";
import { inspectSessionIndex, sqliteHasFts5 } from "../search/session-index/health.ts";
import { archiveBytes, archiveDir } from "../store/archive/archive-store.ts";
import { TEMP_NAME } from "../store/files/atomic-write.ts";
import { verifyStateFile } from "../store/files/state-file.ts";
import { inspectProjectFiles, requireProjectDir } from "./init-project.ts";
import { findOnPath, lookupOnPath } from "./resolve-command.ts";
import { realPathOr, type SelfInfo } from "./self.ts";

export interface DoctorOptions {
  projectDir: string;
  /** Other users' `.ctx` and `.git` passed over on the way to the project (config/paths.ts searchProjectRoot). */
  foreignMarkers?: readonly string[];
  env: NodeJS.ProcessEnv;
  self: SelfInfo;
}

/** Claude Code's user folder (~/.claude, or CLAUDE_CONFIG_DIR) and its global state file (~/.claude.json). */
export function claudeUserPaths(env: NodeJS.ProcessEnv): { settings: string; claudeJson: string } {
  const configDir = env.CLAUDE_CONFIG_DIR;
  const home = env.HOME ?? homedir();
  if (configDir !== undefined && configDir !== "") {
    return { settings: join(configDir, "settings.json"), claudeJson: join(configDir, ".claude.json") };
  }
  return { settings: join(home, ".claude", "settings.json"), claudeJson: join(home, ".claude.json") };
}

export async function runDoctorChecks(options: DoctorOptions): Promise<Finding[]> {
  const { env, self } = options;
  const project = realPathOr(await requireProjectDir(options.projectDir));
  const { snapshot, linkOut } = await inspectProjectFiles(project);
  const user = claudeUserPaths(env);
  const userSettings = await readTextOrNull(user.settings);
  const pluginEnabled = isCtxPluginEnabled([userSettings, snapshot.files.settings, snapshot.files.settingsLocal]);
  const paths = projectPaths(project);
  return [
    ...(linkOut === null ? [] : [fail("repo-links", linkOut.message, linkOut.hint ?? "")]),
    checkNode(self.nodeVersion, self.execPath, sqliteHasFts5()),
    ...checkPathCommands({
      self: self.entry,
      ctx: lookupOnPath("ctx", env, self.platform),
      claudeCtx: lookupOnPath("claude-ctx", env, self.platform),
      ...(self.install ? { installFix: self.install.onPathFix } : {}),
    }),
    ...checkProjectWiring({
      files: snapshot.files,
      pluginEnabled,
      commandProblem: (command, args) => commandProblem(command, args, env, self.platform),
    }),
    ...checkUserWiring(
      {
        project,
        settingsPath: user.settings,
        settings: userSettings,
        claudeJsonPath: user.claudeJson,
        claudeJson: await readTextOrNull(user.claudeJson),
        projectSettings: snapshot.files.settings,
      },
      pluginEnabled,
    ),
    ...checkForeignMarkers(options.foreignMarkers ?? []),
    checkCtxDir(paths.ctxDir, snapshot.ctxDir),
    ...checkStateFiles(await verifyStateFiles(paths.ctxDir, project)),
    checkLeftoverTempFiles(paths.ctxDir, await countLeftoverTempFiles(paths.ctxDir)),
    checkConfig(readConfigCheck(project, env)),
    checkSessionIndex(inspectSessionIndex(resolveIndexPath(env))),
    checkPrivateModes(privateModeFacts(env, paths.ctxDir)),
    checkTranscriptArchive(await archiveFacts(project, env)),
  ];
}

function privateModeFacts(env: NodeJS.ProcessEnv, ctxDir: string): PrivateModeFact[] {
  const indexPath = resolveIndexPath(env);
  const compileCache = compileCacheDir(env);
  const places: Array<[string, PrivateModeFact["kind"], NonNullable<PrivateModeFact["holds"]>]> = [
    [ctxHome(env), "folder", "conversations"],
    [indexPath, "file", "conversations"],
    [`${indexPath}-wal`, "file", "conversations"],
    [`${indexPath}-shm`, "file", "conversations"],
    [ctxDir, "folder", "conversations"],
    [compileCache, "folder", "code"],
    // Node's folder per Node version: made 0755 under the usual umask before ctx turned the cache on under 077.
    ...foldersIn(compileCache).map((path): [string, "folder", "code"] => [path, "folder", "code"]),
  ];
  return places.map(([path, kind, holds]) => {
    const info = lstatSync(path, { throwIfNoEntry: false });
    return { path, kind, holds, mode: info === undefined || info.isSymbolicLink() ? null : info.mode & 0o777 };
  });
}

/** The folders directly in `dir`, links to folders not among them (none when it is absent or unreadable). */
function foldersIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}

async function archiveFacts(project: string, env: NodeJS.ProcessEnv): Promise<ArchiveFacts> {
  const period = readCleanupPeriod(env, project);
  let archive = defaultConfig().archive;
  try {
    archive = loadConfig({ projectRoot: project, env, warn: () => {} }).archive;
  } catch {
    // An invalid config is its own finding (checkConfig); the archive line uses the defaults.
  }
  const { sessions, bytes } = await archiveBytes(env);
  const lastRun = (await stat(join(archiveDir(env), "last-run")).catch(() => null))?.mtime.toISOString() ?? null;
  return {
    cleanupPeriodDays: period.days,
    cleanupPeriodSource: period.source,
    enabled: archive.enabled,
    daysBeforeCleanup: archive.daysBeforeCleanup,
    maxAgeDays: archive.maxAgeDays,
    sessions,
    bytes,
    lastRun,
  };
}

/** Why Claude Code could not start `command args`, or null. */
export function commandProblem(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): string | null {
  if (isAbsolute(command)) {
    if (!existsSync(command)) return `${command} does not exist`;
  } else if (!command.includes("${") && findOnPath(command, env, platform) === null) {
    return `\`${command}\` is not on PATH`;
  }
  const script = args[0];
  if (script !== undefined && /\.[cm]?js$/.test(script) && isAbsolute(script) && !existsSync(script)) {
    return `${script} does not exist`;
  }
  return null;
}

async function verifyStateFiles(ctxDir: string, project: string): Promise<StateFileCheck[]> {
  const entries = await readdir(ctxDir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith(".ctx"));
  const checks: StateFileCheck[] = [];
  for (const entry of files) {
    const path = join(entry.parentPath, entry.name);
    let problem: string | null;
    try {
      const result = await verifyStateFile(path);
      problem = result.ok ? null : result.problem;
    } catch (error) {
      problem = describeError(error);
    }
    checks.push({ path: relative(project, path), absolutePath: path, problem });
  }
  return checks.sort((a, b) => a.path.localeCompare(b.path));
}

// The store's temp-file names, and its age rule: a live writer holds its temp file for milliseconds.
const TEMP_FILE_NAME = TEMP_NAME;
export const LEFTOVER_TEMP_MIN_AGE_MS = 10 * 60_000;

/** Temp files of killed writers anywhere in `.ctx/`. Counted only: doctor reads, it never deletes. */
export async function countLeftoverTempFiles(ctxDir: string, now = Date.now()): Promise<number> {
  const entries = await readdir(ctxDir, { recursive: true, withFileTypes: true }).catch(() => []);
  let count = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !TEMP_FILE_NAME.test(entry.name)) continue;
    const info = await stat(join(entry.parentPath, entry.name)).catch(() => null);
    if (info !== null && now - info.mtimeMs >= LEFTOVER_TEMP_MIN_AGE_MS) count += 1;
  }
  return count;
}

function readConfigCheck(project: string, env: NodeJS.ProcessEnv): ConfigCheck {
  const files = [globalConfigPath(env), projectPaths(project).config];
  try {
    const layers = readConfigLayers({ projectRoot: project, env, warn: () => {} });
    validateLayers(layers);
    const ignored = layers.find((layer) => layer.ignored !== undefined)?.ignored;
    return {
      ok: true,
      sources: files.map((file) => `${file}${existsSync(file) ? "" : " (not present)"}`),
      ...(ignored ? { ignored: { file: ignored.file, keys: ignored.keys } } : {}),
    };
  } catch (error) {
    if (isCtxError(error) && error.code === "CONFIG_INVALID")
      return { ok: false, message: error.message, hint: error.hint ?? null };
    throw error;
  }
}

async function readTextOrNull(path: string): Promise<string | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
