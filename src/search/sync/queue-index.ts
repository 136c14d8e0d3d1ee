// Index what just ended: SessionEnd starts a detached, low-priority `ctx index --quiet --file <transcript>` so the
// session is searchable right away, unless `ctx serve` is watching the transcripts (it indexes them itself). The
// hook never waits: the child is detached with no stdio and unref'd. `ctx serve` marks that it watches with a pid
// file (markWatching); a pid file whose process is gone counts as not watching.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ctxHome } from "../../config/paths.ts";
import { isProcessAlive } from "../../store/files/process-alive.ts";
import { LOW_PRIORITY, startDetachedCtx } from "../../store/process/detached-child.ts";

const WATCHER_PID_FILE = "index-watcher.pid";

function pidFile(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), WATCHER_PID_FILE);
}

/** `ctx serve` watches: writes its pid (0600); the returned function removes the file if it is still ours. */
export function markWatching(env: NodeJS.ProcessEnv, pid = process.pid): () => void {
  const path = pidFile(env);
  mkdirSync(ctxHome(env), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${pid}\n`, { mode: 0o600 });
  return () => {
    try {
      if (readFileSync(path, "utf8").trim() === String(pid)) rmSync(path, { force: true });
    } catch {
      // Already gone.
    }
  };
}

/** True when a live process wrote the watcher's pid file. */
export function isWatching(env: NodeJS.ProcessEnv): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(env), "utf8").trim());
  } catch {
    return false;
  }
  return isProcessAlive(pid);
}

export interface QueueIndexOptions {
  env: NodeJS.ProcessEnv;
  /** dist/ctx.js */
  cliPath: string;
  execPath?: string;
  transcriptPath: string;
}

/** "watched" (serve will index it), "queued" (child started, pid), or "skipped" (no CLI path to run). */
export function queueSessionIndexing(options: QueueIndexOptions): {
  outcome: "watched" | "queued" | "skipped";
  pid?: number;
} {
  if (options.cliPath === "" || options.transcriptPath === "") return { outcome: "skipped" };
  if (isWatching(options.env)) return { outcome: "watched" };
  const pid = startDetachedCtx(["index", "--quiet", "--file", options.transcriptPath], {
    cliPath: options.cliPath,
    execPath: options.execPath,
    env: options.env,
    priority: LOW_PRIORITY,
  });
  return pid === undefined ? { outcome: "queued" } : { outcome: "queued", pid };
}
