// When the archive pass runs, kept light for the hook path (no container or compression code here): one
// stat of `~/.ctx/archive/last-run` decides whether a pass is due, and the pass itself runs as a detached,
// nice'd `ctx archive run --quiet` child, never in the hook or the server's event loop.
import { existsSync } from "node:fs";
import { mkdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { withHooksDisabled } from "../../config/hooks-disabled.ts";
import { ctxHome } from "../../config/paths.ts";
import { LOWEST_PRIORITY, startDetachedCtx } from "../process/detached-child.ts";

/** SessionStart checks at most this often. */
export const HOOK_ARCHIVE_INTERVAL_MS = 3_600_000;
/** `ctx serve` runs a pass this often. */
export const SERVE_ARCHIVE_INTERVAL_MS = 86_400_000;

const lastRunPath = (env: NodeJS.ProcessEnv) => join(ctxHome(env), "archive", "last-run");

/** True when no pass started within `intervalMs`. */
export async function archivePassDue(env: NodeJS.ProcessEnv, now: Date, intervalMs: number): Promise<boolean> {
  const info = await stat(lastRunPath(env)).catch(() => null);
  return info === null || now.getTime() - info.mtimeMs >= intervalMs;
}

/** Records a pass as started (so concurrent sessions do not each start one). */
export async function markArchiveRun(env: NodeJS.ProcessEnv, at: Date): Promise<void> {
  const path = lastRunPath(env);
  await mkdir(join(ctxHome(env), "archive"), { recursive: true, mode: 0o700 });
  await writeFile(path, "", { mode: 0o600 });
  await utimes(path, at, at);
}

/**
 * Starts `ctx archive run --quiet` detached (own session, no stdio, unref'd, CTX_HOOKS_DISABLED) at the lowest
 * CPU priority, when a pass is due; marks it started first. Returns the child's pid, or null when not due.
 */
export async function startArchivePassIfDue(options: {
  env: NodeJS.ProcessEnv;
  execPath: string;
  cliPath: string;
  cwd: string;
  now: Date;
  intervalMs: number;
}): Promise<number | null> {
  if (options.cliPath === "" || !(await archivePassDue(options.env, options.now, options.intervalMs))) return null;
  await markArchiveRun(options.env, options.now);
  const pid = startDetachedCtx(["archive", "run", "--quiet"], {
    cliPath: options.cliPath,
    execPath: options.execPath,
    env: withHooksDisabled(options.env),
    cwd: options.cwd,
    priority: LOWEST_PRIORITY,
  });
  return pid ?? null;
}

/** Whether the archive lists `sessionId` (its meta exists; the container is verified on restore). */
export function isArchived(env: NodeJS.ProcessEnv, sessionId: string): boolean {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(sessionId)) return false;
  return existsSync(join(ctxHome(env), "archive", `${sessionId}.meta.json`));
}
