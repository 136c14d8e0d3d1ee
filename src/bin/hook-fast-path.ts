// The process's own start-up and hook I/O, for ./main.ts (the program) and ./lean.ts (the lean entry):
// - V8's code cache for ctx's own modules, kept with ctx's other private files: it covers only modules loaded after
//   it is on, so each entry turns it on before importing its bulk (bench/run.ts hooks measures the gain). Folders
//   are made 0700 first, and Node's own folder in there (one per Node version, made when the cache is turned on)
//   under a umask of 077 (with the usual 022 it was 0755). Failure is harmless.
// - `ctx hook <event>` without commander or the MCP SDK: stdin, stdout and stderr are used through their file
//   descriptors, never `process.stdin`/`stdout`/`stderr`, whose streams (a net.Socket for Claude Code's pipes) cost a
//   hook process milliseconds (bench/run.ts hooks). The writes are synchronous: the reply has reached the pipe when
//   the process exits. A reader that went away (EPIPE) is not the hook's problem.
// Nothing heavy is imported here: the entry loads the hook runtime after the code cache is on and passes it in.
import { fstatSync, mkdirSync, writeSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { compileCacheDir } from "../config/paths.ts";
import type { runHookProcess } from "../hooks/runtime/process.ts";
import type { HookLoader } from "../hooks/runtime/types.ts";
import { sanitizeLogLine } from "../terminal-text.ts";

export function enableCtxCompileCache(env: NodeJS.ProcessEnv): void {
  try {
    const cacheDir = compileCacheDir(env);
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const umask = process.umask(0o077);
    try {
      enableCompileCache?.(cacheDir);
    } finally {
      process.umask(umask);
    }
  } catch {
    // no cache: slower start, same behaviour
  }
}

/** The hook runtime, passed in by the entry that loaded it once the code cache was on. */
export interface HookRuntime {
  runHookProcess: typeof runHookProcess;
  loadHook: HookLoader;
}

export async function runHookFastPath(
  event: string | undefined,
  { runHookProcess, loadHook }: HookRuntime,
): Promise<never> {
  try {
    const result = await runHookProcess(
      event,
      { stdin: 0, env: process.env, cliPath: process.argv[1] ?? "" },
      loadHook,
    );
    writeAllSync(2, result.stderr);
    writeAllSync(1, result.stdout);
    // A stdin its writer never closed: the reply is out, but Node's exit would wait for the blocked read of it.
    if (result.abandonedStdinRead === true) process.kill(process.pid, "SIGKILL");
    process.exit(result.exitCode);
  } catch (thrown) {
    // Only a broken install gets here (runHookProcess itself never throws): one line, and the session goes on.
    writeAllSync(2, `${sanitizeLogLine(`ctx hook: ${thrown instanceof Error ? thrown.message : String(thrown)}`)}\n`);
    process.exit(0);
  }
}

/**
 * Writes all of `text` to descriptor `fd` before returning; false when nobody reads it any more (EPIPE) or the
 * descriptor is closed. Shared with ./main.ts, whose commands write the same way (a stream costs a process
 * milliseconds to build: bench/run.ts cli).
 */
export function writeAllSync(fd: number, text: string): boolean {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  try {
    while (offset < bytes.length) {
      try {
        offset += writeSync(fd, bytes, offset);
      } catch (error) {
        // A pipe left non-blocking by its reader: full for now, try again.
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      }
    }
    return true;
  } catch {
    // EPIPE (the reader is gone) or a closed descriptor.
    return false;
  }
}

/** Whether descriptor `fd` is a terminal. node:tty (which loads node:net) only for a character device. */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}
