// Where Claude Code keeps its own files for a user and a project (docs/claude-code-facts.md "Transcripts", "CLAUDE.md
// and auto memory"): its config folder (CLAUDE_CONFIG_DIR, else ~/.claude), the project folder name it derives from a
// path, and the git repository a path belongs to (auto memory is per repository: worktrees share it).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { projectFolderName } from "../core/search/fork-query.ts";
import { homeOf } from "./paths.ts";

export { homeOf };

export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  const configured = env.CLAUDE_CONFIG_DIR;
  // ccusage accepts a comma-separated list; Claude Code itself writes to the first.
  if (configured !== undefined && configured.trim() !== "") return resolve(configured.split(",")[0]?.trim() ?? "");
  return join(homeOf(env), ".claude");
}

/** Every `<config dir>/projects` folder: CLAUDE_CONFIG_DIR may list several (comma-separated), else ~/.claude. */
export function claudeProjectsDirs(env: NodeJS.ProcessEnv): string[] {
  const configDirs = (env.CLAUDE_CONFIG_DIR?.split(",") ?? [join(homeOf(env), ".claude")]).filter(Boolean);
  return configDirs.map((dir) => join(dir.trim(), "projects"));
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * True when `path`, links resolved, lies inside one of Claude Code's projects folders: where a transcript a
 * model (not a person) names may be read from.
 */
export function insideClaudeProjects(env: NodeJS.ProcessEnv, path: string): boolean {
  const real = realOrNull(path);
  if (real === null) return false;
  return claudeProjectsDirs(env).some((dir) => {
    const root = realOrNull(dir);
    if (root === null) return false;
    const rel = relative(root, real);
    return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep);
  });
}

const MAX_NAME = 200;

/**
 * `<project>` in `~/.claude/projects/<project>/`: the absolute path with every non-alphanumeric character
 * replaced by `-`. Over 200 characters it is cut and a hash of the whole path appended; Claude Code's hash
 * function is not documented, so such a path should set `memory.directory` explicitly.
 */
export function claudeProjectDirName(path: string): string {
  const name = projectFolderName(resolve(path));
  if (name.length <= MAX_NAME) return name;
  return `${name.slice(0, MAX_NAME)}-${createHash("sha256").update(path).digest("hex").slice(0, 8)}`;
}

/**
 * The main working tree of the git repository holding `path` (a worktree's `.git` file points into the main
 * repository's `.git/worktrees/<name>`), or `path` itself outside git.
 */
export function gitRepositoryRoot(path: string): string {
  let dir = resolve(path);
  for (;;) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return dir;
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
      if (pointer === undefined) return dir;
      const gitDir = isAbsolute(pointer) ? pointer : resolve(dir, pointer);
      const marker = `${join(".git", "worktrees")}`;
      const at = gitDir.lastIndexOf(marker);
      return at < 0 ? dir : dirname(join(gitDir.slice(0, at), ".git"));
    }
    const parent = dirname(dir);
    if (parent === dir) return resolve(path);
    dir = parent;
  }
}

/** Claude Code's default `cleanupPeriodDays` (docs/claude-code-facts.md "Transcripts"). */
export const DEFAULT_CLEANUP_PERIOD_DAYS = 30;

export interface CleanupPeriod {
  days: number;
  /** The settings file that set it, or "default". */
  source: string;
}

/**
 * `cleanupPeriodDays` as Claude Code resolves it: the project's local settings (`.claude/settings.local.json`)
 * over its shared ones (`.claude/settings.json`) over the user's (`<config dir>/settings.json`), else 30.
 * A file that does not parse, or a value that is not a non-negative number, is passed over as Claude Code
 * passes over an invalid setting.
 */
export function readCleanupPeriod(env: NodeJS.ProcessEnv, projectRoot?: string): CleanupPeriod {
  const files = [
    ...(projectRoot === undefined
      ? []
      : [join(projectRoot, ".claude", "settings.local.json"), join(projectRoot, ".claude", "settings.json")]),
    join(claudeConfigDir(env), "settings.json"),
  ];
  for (const file of files) {
    let value: unknown;
    try {
      value = (JSON.parse(readFileSync(file, "utf8")) as { cleanupPeriodDays?: unknown }).cleanupPeriodDays;
    } catch {
      continue;
    }
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return { days: value, source: file };
  }
  return { days: DEFAULT_CLEANUP_PERIOD_DAYS, source: "default" };
}
