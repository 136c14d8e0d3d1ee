// Starting a `ctx` child that runs in the background and is never waited for: the team pusher, SessionEnd's
// indexing, the transcript archive pass and the snapshot recompression. Its own session (a signal to the starting
// process's group, a hook's above all, does not reach it), no stdio (it holds none of Claude Code's pipes open, so a
// hook's exit is seen at once), unref'd (the starting process does not wait for it), at a lower CPU priority when
// asked. Starting it never throws for a missing binary: the work is optional and its caller is often a hook.
import { setPriority } from "node:os";

/** A nice value for work that yields to whatever the person does next (the pusher, SessionEnd's indexing). */
export const LOW_PRIORITY = 10;
/** The lowest CPU priority there is (the archive pass). */
export const LOWEST_PRIORITY = 19;

export interface DetachedCtxOptions {
  /** The ctx CLI entry (`dist/ctx.js`), run as `<execPath> <cliPath> <args…>`. */
  cliPath: string;
  /** The Node binary; process.execPath when absent. */
  execPath?: string | undefined;
  /** The child's whole environment, as given (a caller that wants CTX_HOOKS_DISABLED sets it). */
  env: NodeJS.ProcessEnv;
  /** The child's working folder; this process's when absent. */
  cwd?: string | undefined;
  /** The child's nice value; when absent it keeps this process's priority. */
  priority?: number;
}

/** Starts `<execPath> <cliPath> <args…>` detached; returns its pid (undefined when it could not start). */
export function startDetachedCtx(args: readonly string[], options: DetachedCtxOptions): number | undefined {
  // Loaded here, not imported: child_process (and net under it) costs every hook that loads it (bench/run.ts hooks,
  // builtinCostMs), and most runs of the callers start no child.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(options.execPath ?? process.execPath, [options.cliPath, ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    detached: true,
    stdio: "ignore",
    env: options.env,
  });
  // A failed start (a missing binary) arrives as an event: unheard, it would crash the starting process.
  child.on("error", () => undefined);
  child.unref();
  if (child.pid !== undefined && options.priority !== undefined) {
    try {
      setPriority(child.pid, options.priority);
    } catch {
      // Not permitted on this system: it runs at normal priority, still off the starting process's path.
    }
  }
  return child.pid;
}
