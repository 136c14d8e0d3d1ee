// The I/O shell of `ctx hook <event>`: reads all of stdin, runs the dispatcher with production deps,
// writes the reply. Loaded straight from src/bin without commander or the MCP SDK (hook start-up budget).
import { HOOKS_DISABLED_ENV } from "../../config/hooks-disabled.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { createLogger, parseLogLevel } from "../../log.ts";
import { loadCachedConfig } from "../../store/config/config-cache.ts";
import { type HookRunResult, runHook, stderrLine } from "./dispatch.ts";
import { readStdin, StdinTooLargeError } from "./stdin.ts";
import type { HookLoader } from "./types.ts";

export async function runHookProcess(
  eventName: string | undefined,
  io: {
    /** A stream (`ctx hook` through commander, tests) or a file descriptor (the fast path in src/bin). */
    stdin: NodeJS.ReadStream | number;
    env: NodeJS.ProcessEnv;
    cliPath: string;
  },
  /** ./table.ts loadHook, or the lean entry's. */
  loadHook: HookLoader,
): Promise<HookRunResult> {
  if (io.env[HOOKS_DISABLED_ENV] === "1") return { stdout: "", stderr: "", exitCode: 0 };
  if (eventName === undefined) {
    return {
      stdout: "",
      stderr: "ctx hook: missing event name (e.g. `ctx hook session-start`); nothing done\n",
      exitCode: 0,
    };
  }
  const logger = createLogger({ level: parseLogLevel(io.env.CTX_LOG_LEVEL, "warn"), prefix: "ctx hook" });
  let stdinText: string;
  let abandonedStdinRead: boolean;
  try {
    ({ text: stdinText, abandoned: abandonedStdinRead } = await readStdin(io.stdin));
  } catch (error) {
    const why = error instanceof StdinTooLargeError ? error.message : `cannot read stdin (${String(error)})`;
    return { stdout: "", stderr: stderrLine(`ctx hook: ${eventName}: ${why}; nothing done`), exitCode: 0 };
  }
  const result = await runHook(eventName, stdinText, {
    env: io.env,
    now: () => new Date(),
    logger,
    findProjectRoot: (cwd) => findProjectRoot(cwd, io.env),
    cliPath: io.cliPath,
    loadConfig: (projectRoot) => loadCachedConfig({ projectRoot, env: io.env }),
    loadHook,
  });
  return abandonedStdinRead ? { ...result, abandonedStdinRead } : result;
}
