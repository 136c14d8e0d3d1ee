// The server's background indexer: watches the folders of <claudeDir>/projects for transcript writes (folder-watch.ts:
// a watch per folder, never per file) and, after a quiet period, runs the index sync (then the vector fill) as CHILD
// processes at the lowest CPU priority, so the MCP server's event loop never does the heavy work. One run at a time;
// writes during a run coalesce into one more run. Children write to pipes (never to our stdout, which carries
// JSON-RPC) and are killed on close. A folder that cannot be watched (past max_user_watches, no permission) is said
// once, and a sync then also runs on a timer, so nothing is missed for long and the server keeps going.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { describeError, isCtxError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { withLock } from "../../store/files/lock.ts";
import { type FolderWatchOptions, watchTranscriptFolders } from "./folder-watch.ts";

/** nice 19: the child runs only on CPU time nothing else wants. */
export const BACKGROUND_PRIORITY = 19;
const KILL_GRACE_MS = 2_000;
const STDERR_TAIL = 2_000;
/** How long a run waits for another process's background sync before giving up on this turn. */
const LOCK_WAIT_MS = 100;
/** How often a sync runs when some folder could not be watched. */
export const FALLBACK_SYNC_MS = 60_000;

export interface RunReport {
  command: string[];
  pid: number | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderrTail: string;
}

export interface IndexWatcherOptions {
  claudeDir: string;
  quietMs: number;
  /** Run once after start-up (after the quiet period) even with no change. */
  syncOnStart: boolean;
  /** The commands of one run, in order (a failing one stops the run): `ctx index`, then `ctx embed`. */
  commands: string[][];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /**
   * Shared by every ctx server of this user: each Claude Code session starts one, and all of them see the
   * same transcript writes. The run that finds the lock held skips and tries again after the next quiet period.
   */
  lockPath?: string;
  /** Observers, for tests and logs. */
  onSpawn?: (pid: number | undefined, command: string[]) => void;
  onRunEnd?: (reports: RunReport[]) => void;
  /** The period of the sync when a folder cannot be watched (FALLBACK_SYNC_MS). */
  fallbackSyncMs?: number;
  /** node:fs watch, for tests that make a folder unwatchable. */
  watchFolder?: FolderWatchOptions["watch"];
}

export interface IndexWatcher {
  /** Settles when the folders that exist are watched (events before that may be missed). */
  readonly ready: Promise<void>;
  /** The folders watched now (one inotify watch each on Linux). */
  folders(): number;
  /** Stops watching, cancels a pending run and kills a running child (waits for it to exit). */
  close(): Promise<void>;
  /** Synchronous last resort for process exit and signals: stop scheduling and SIGTERM a running child. */
  terminate(): void;
}

export function startIndexWatcher(options: IndexWatcherOptions): IndexWatcher {
  const root = join(options.claudeDir, "projects");
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let pending = false;
  let closed = false;
  let child: ChildProcess | undefined;
  let fallback: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(fire, options.quietMs);
  };

  function fire(): void {
    timer = undefined;
    if (closed) return;
    if (running) {
      pending = true;
      return;
    }
    running = runLocked().finally(() => {
      running = undefined;
      if (pending && !closed) {
        pending = false;
        fire();
      }
    });
  }

  async function runLocked(): Promise<void> {
    if (options.lockPath === undefined) return runAll();
    try {
      await withLock(options.lockPath, runAll, { timeoutMs: LOCK_WAIT_MS });
    } catch (error) {
      if (!isCtxError(error) || error.code !== "LOCK_TIMEOUT") throw error;
      options.logger.debug("another ctx process is syncing the index; trying again after the next quiet period");
      schedule();
    }
  }

  async function runAll(): Promise<void> {
    const reports: RunReport[] = [];
    for (const command of options.commands) {
      if (closed) break;
      const report = await runChild(command);
      reports.push(report);
      if (report.exitCode !== 0) {
        if (!closed) {
          options.logger.warn(
            `background ${command.slice(2).join(" ")} failed (${report.signal ?? `exit ${report.exitCode}`}): ${report.stderrTail.trim()}`,
          );
        }
        break;
      }
      options.logger.debug(`background ${command.slice(2).join(" ")}: ${report.stdout.trim()}`);
    }
    options.onRunEnd?.(reports);
  }

  function runChild(command: string[]): Promise<RunReport> {
    return new Promise((resolve) => {
      const [file, ...args] = command;
      let stdout = "";
      let stderr = "";
      const started = spawn(file ?? "", args, { stdio: ["ignore", "pipe", "pipe"], env: options.env ?? process.env });
      child = started;
      try {
        if (started.pid !== undefined) setPriority(started.pid, BACKGROUND_PRIORITY);
      } catch (error) {
        options.logger.debug(`cannot lower the background sync's priority: ${describeError(error)}`);
      }
      options.onSpawn?.(started.pid, command);
      started.stdout?.setEncoding("utf8").on("data", (text: string) => {
        if (stdout.length < 100_000) stdout += text;
      });
      started.stderr?.setEncoding("utf8").on("data", (text: string) => {
        stderr = (stderr + text).slice(-STDERR_TAIL);
      });
      const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
        if (child === started) child = undefined;
        resolve({ command, pid: started.pid, exitCode, signal, stdout, stderrTail: stderr });
      };
      started.on("error", (error) => {
        stderr += describeError(error);
        finish(-1, null);
      });
      started.on("close", finish);
    });
  }

  const started = Date.now();
  const folders = watchTranscriptFolders({
    root,
    onChange: schedule,
    onFailure: (path, error) => {
      if (fallback !== undefined || closed) return;
      const every = options.fallbackSyncMs ?? FALLBACK_SYNC_MS;
      options.logger.warn(
        `cannot watch ${path} (${describeError(error)}); the index is also synced every ${every / 1000} s`,
      );
      fallback = setInterval(schedule, every);
      fallback.unref();
    },
    ...(options.watchFolder ? { watch: options.watchFolder } : {}),
  });
  const ready = folders.ready.then(() =>
    options.logger.debug(
      `watching ${folders.folders()} folder${folders.folders() === 1 ? "" : "s"} under ${root} (${Date.now() - started} ms)`,
    ),
  );
  if (options.syncOnStart && existsSync(root)) schedule();

  return {
    ready,
    folders: () => folders.folders(),
    terminate() {
      closed = true;
      clearTimeout(timer);
      clearInterval(fallback);
      folders.close();
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(fallback);
      folders.close();
      const current = child;
      if (current && current.exitCode === null && current.signalCode === null) {
        const exited = new Promise<void>((resolve) => current.once("close", () => resolve()));
        current.kill("SIGTERM");
        const forced = setTimeout(() => current.kill("SIGKILL"), KILL_GRACE_MS);
        await exited;
        clearTimeout(forced);
      }
      await running;
    },
  };
}
