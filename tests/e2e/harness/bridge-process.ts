// Runs the built `ctx bridge synology --port 0` in a sandbox as a real process: waits for its "listening" line,
// keeps its stderr (one line per message), and posts Synology-style webhooks to it.
import { type ChildProcess, spawn } from "node:child_process";
import { CTX_BIN, type Sandbox } from "./sandbox.ts";

export interface BridgeProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Resolves once stderr matches `pattern` (log lines follow the post they describe by a moment). */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code / signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  post(fields: Record<string, string>, contentType?: string): Promise<{ status: number; body: string }>;
  postRaw(body: Uint8Array | string, contentType?: string): Promise<{ status: number; body: string }>;
}

/** `port` 0 (the default) lets the bridge pick a free one; a fixed port keeps the address across restarts. */
export async function startBridgeProcess(
  sandbox: Sandbox,
  env: Record<string, string>,
  port = 0,
): Promise<BridgeProcess> {
  const child = spawn(process.execPath, [CTX_BIN, "bridge", "synology", "--port", String(port)], {
    cwd: sandbox.project,
    env: { ...sandbox.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bridge did not start:\n${stderr}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)\/webhook/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`bridge exited with ${code} before listening:\n${stderr}`));
    });
  });
  const postRaw = async (body: Uint8Array | string, contentType = "application/x-www-form-urlencoded") => {
    const response = await fetch(`${url}/webhook`, {
      method: "POST",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : Buffer.from(body),
    });
    return { status: response.status, body: await response.text() };
  };
  return {
    url,
    child,
    stderr: () => stderr,
    waitForLog: async (pattern, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(stderr)) {
        if (Date.now() > deadline) throw new Error(`bridge log never matched ${pattern}:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return stderr;
    },
    exited,
    postRaw,
    post: (fields, contentType) => postRaw(new URLSearchParams(fields).toString(), contentType),
  };
}
