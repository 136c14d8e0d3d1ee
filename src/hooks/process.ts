// The I/O shell of `ctx hook <event>`: reads all of stdin, runs the dispatcher with production deps,
// writes the reply. Loaded straight from src/bin without commander or the MCP SDK (hook start-up budget).
import { loadConfig } from "../config/load.ts";
import { findProjectRoot } from "../config/paths.ts";
import { createLogger, parseLogLevel } from "../log.ts";
import { type HookRunResult, runHook } from "./dispatch.ts";

/** Set in the environment of child processes ctx itself starts (e.g. `claude -p`), so hooks never recurse. */
export const HOOKS_DISABLED_ENV = "CTX_HOOKS_DISABLED";

// Claude Code writes the whole input at once and closes stdin; a stdin left open must not stall the session.
const STDIN_LIMIT_MS = 5_000;
/** A hook's input is a few KB (a PostToolUse with a large tool response, a few MB); past this it is refused
 *  unread rather than held in memory (600 MB once took 1.9 GB and ended in ERR_STRING_TOO_LONG). */
export const STDIN_LIMIT_BYTES = 16 * 1024 * 1024;

export class StdinTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`stdin is larger than ${Math.round(limitBytes / (1024 * 1024))} MiB`);
    this.limitBytes = limitBytes;
  }
}

export async function readAllStdin(stdin: NodeJS.ReadStream, limitBytes: number = STDIN_LIMIT_BYTES): Promise<string> {
  if (stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stdin.pause();
      resolve(Buffer.concat(chunks).toString("utf8"));
    }, STDIN_LIMIT_MS);
    timer.unref();
    stdin.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > limitBytes) {
        clearTimeout(timer);
        chunks.length = 0;
        stdin.pause();
        stdin.removeAllListeners("data");
        reject(new StdinTooLargeError(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    stdin.on("end", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    stdin.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export async function runHookProcess(
  eventName: string | undefined,
  io: { stdin: NodeJS.ReadStream; env: NodeJS.ProcessEnv; cliPath: string },
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
  try {
    stdinText = await readAllStdin(io.stdin);
  } catch (error) {
    const why = error instanceof StdinTooLargeError ? error.message : `cannot read stdin (${String(error)})`;
    return { stdout: "", stderr: `ctx hook: ${eventName}: ${why}; nothing done\n`, exitCode: 0 };
  }
  return runHook(eventName, stdinText, {
    env: io.env,
    now: () => new Date(),
    logger,
    findProjectRoot: (cwd) => findProjectRoot(cwd, io.env),
    cliPath: io.cliPath,
    loadConfig: (projectRoot) => loadConfig({ projectRoot, env: io.env }),
  });
}
