// Runs the BUILT ctx binary (dist/ctx.js) as a real process with the test's Node, for whole-process tests.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CTX_BIN = fileURLToPath(new URL("../../dist/ctx.js", import.meta.url));

export interface ProcessResult {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function assertBuilt(): void {
  if (!existsSync(CTX_BIN)) throw new Error(`${CTX_BIN} is missing: run \`pnpm build\` first (\`pnpm test\` does)`);
}

export function runCtx(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string | Buffer; timeoutMs?: number } = {
    cwd: process.cwd(),
  },
): Promise<ProcessResult> {
  assertBuilt();
  return runProcess(process.execPath, [CTX_BIN, ...args], {
    ...options,
    env: { ...process.env, CTX_LOG_LEVEL: "warn", ...options.env },
  });
}

/** Runs `command` to its end with the whole environment given, its stdout and stderr collected, killed after the
 *  time limit (SIGKILL, seen as `signal`). */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string | Buffer; timeoutMs?: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    // A child that refuses its input unread (e.g. a hook's stdin cap) closes the pipe: not the test's error.
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        code,
        signal,
      });
    });
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
  });
}
