// The I/O shell of `ctx hook <event>`: reads all of stdin, runs the dispatcher with production deps,
// writes the reply. Loaded straight from src/bin without commander or the MCP SDK (hook start-up budget).
import { fstatSync, read } from "node:fs";
import { HOOKS_DISABLED_ENV } from "../config/hooks-disabled.ts";
import { knownConfig, readConfigLayers } from "../config/layers.ts";
import { findProjectRoot } from "../config/paths.ts";
import type { Config } from "../config/schema.ts";
import { createLogger, parseLogLevel } from "../log.ts";
import { fileConfigCache } from "../store/config/config-cache.ts";
import { type HookRunResult, runHook, stderrLine } from "./dispatch.ts";
import type { HookTable } from "./types.ts";

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

/** What {@link readStdinFd} got: the text, and whether a read was still waiting when the time limit ended it. */
export interface StdinRead {
  text: string;
  /**
   * A thread of libuv's pool is still blocked in that read, and Node's exit waits for it: the process must
   * then end by a signal once its reply is written (src/bin/main.ts), or it would live until the writer closes.
   */
  abandoned: boolean;
}

/**
 * stdin read from its file descriptor with `fs.read`, bounded like {@link readAllStdin}: what a hook process uses.
 * `process.stdin` builds a stream (for Claude Code's socket, a net.Socket) whose modules cost a hook process ~4 ms
 * (bench/hooks.bench.ts); a read on libuv's thread pool costs next to nothing and still leaves the timer free to
 * end a read that never ends. A terminal gives "" (nobody is typing a hook's JSON).
 */
export function readStdinFd(
  fd: number,
  limitBytes: number = STDIN_LIMIT_BYTES,
  limitMs: number = STDIN_LIMIT_MS,
): Promise<StdinRead> {
  if (fstatSync(fd).isCharacterDevice()) return Promise.resolve({ text: "", abandoned: false });
  const chunks: Buffer[] = [];
  let total = 0;
  let reading = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(), limitMs);
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error === undefined) resolve({ text: Buffer.concat(chunks).toString("utf8"), abandoned: reading });
      else reject(error);
    };
    const next = () => {
      if (done) return; // a retry timer that outlived the read: the descriptor may be another file's by now
      const buffer = Buffer.allocUnsafe(64 * 1024);
      reading = true;
      read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
        reading = false;
        if (done) return;
        // A descriptor left non-blocking by the writer: nothing yet, look again shortly (the timer still bounds it).
        if (error?.code === "EAGAIN") return void setTimeout(next, 1);
        if (error) return finish(error);
        if (bytes === 0) return finish();
        total += bytes;
        if (total > limitBytes) {
          chunks.length = 0;
          return finish(new StdinTooLargeError(limitBytes));
        }
        chunks.push(buffer.subarray(0, bytes));
        next();
      });
    };
    next();
  });
}

export async function runHookProcess(
  eventName: string | undefined,
  io: {
    /** A stream (`ctx hook` through commander, tests) or a file descriptor (the fast path in src/bin). */
    stdin: NodeJS.ReadStream | number;
    env: NodeJS.ProcessEnv;
    cliPath: string;
  },
  /** ./table.ts's HOOK_TABLE, or the every-call entry's part of it. */
  table: HookTable,
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
  let abandonedStdinRead = false;
  try {
    if (typeof io.stdin === "number") {
      const got = await readStdinFd(io.stdin);
      stdinText = got.text;
      abandonedStdinRead = got.abandoned;
    } else {
      stdinText = await readAllStdin(io.stdin);
    }
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
    loadConfig: (projectRoot) => loadHookConfig(projectRoot, io.env),
    table,
  });
  return abandonedStdinRead ? { ...result, abandonedStdinRead } : result;
}

/** The project's config; the schema (zod, several milliseconds to load and build) only when the layers were never
 *  validated before: no config at all, or the same layers as last time, need none (config/layers.ts). */
async function loadHookConfig(projectRoot: string, env: NodeJS.ProcessEnv): Promise<Config> {
  const cache = fileConfigCache(env);
  const layers = readConfigLayers({ projectRoot, env });
  return knownConfig(layers, cache) ?? (await import("../config/load.ts")).validateLayers(layers, cache);
}
