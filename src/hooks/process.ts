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

export async function readAllStdin(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stdin.pause();
      resolve(Buffer.concat(chunks).toString("utf8"));
    }, STDIN_LIMIT_MS);
    timer.unref();
    stdin.on("data", (chunk: Buffer) => chunks.push(chunk));
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
    return { stdout: "", stderr: `ctx hook: cannot read stdin (${String(error)}); nothing done\n`, exitCode: 0 };
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
