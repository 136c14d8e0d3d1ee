// Headless Chromium (Debian's package) driven over the DevTools protocol, for tests that use a page as a person does:
// started with a debugging port of its own and a throwaway profile, one page attached, commands sent and answered,
// the page's console and log (CSP refusals included) collected. Node's own WebSocket, no client library.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CHROMIUM = ["chromium", "chromium-browser"].find((bin) => spawnSync(bin, ["--version"]).status === 0);

export interface ChromiumPage {
  /** Sends a command to the page; resolves with its result, rejects with the protocol's error. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Evaluates an expression in the page (awaiting a promise) and returns its value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Waits until the expression is truthy (polled), or fails naming it. */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
  /** Console messages and log entries (a CSP refusal is one), as text. */
  messages: string[];
  close(): Promise<void>;
}

export async function openChromiumPage(): Promise<ChromiumPage> {
  const child: ChildProcess = spawn(
    CHROMIUM ?? "chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--remote-debugging-port=0",
      // No network at all but loopback: a page that reached out would fail and log it.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      `--user-data-dir=${mkdtempSync(join(tmpdir(), "ctx-chromium-"))}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const browserUrl = await new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${text}`)), 30_000);
    child.stderr?.on("data", (d: Buffer) => {
      text += d.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  const socket = new WebSocket(browserUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const messages: string[] = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: Record<string, unknown>;
    };
    if (message.id !== undefined) {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    } else if (message.method === "Runtime.consoleAPICalled") {
      const args = (message.params?.args as Array<{ value?: unknown }>) ?? [];
      messages.push(`console: ${args.map((arg) => String(arg.value)).join(" ")}`);
    } else if (message.method === "Log.entryAdded") {
      const entry = message.params?.entry as { level: string; text: string };
      messages.push(`log ${entry.level}: ${entry.text}`);
    } else if (message.method === "Runtime.exceptionThrown") {
      messages.push(`exception: ${JSON.stringify(message.params?.exceptionDetails)}`);
    }
  };
  const raw = <T>(method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    });
  const { targetId } = await raw<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await raw<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  const send = <T>(method: string, params: Record<string, unknown> = {}) => raw<T>(method, params, sessionId);
  await Promise.all([send("Page.enable"), send("Runtime.enable"), send("Log.enable")]);
  const evaluate = async <T>(expression: string): Promise<T> => {
    const answer = await send<{ result: { value?: T }; exceptionDetails?: { text: string } }>("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
    });
    if (answer.exceptionDetails !== undefined) throw new Error(`${expression}: ${answer.exceptionDetails.text}`);
    return answer.result.value as T;
  };
  return {
    send,
    evaluate,
    messages,
    waitFor: async (expression, timeoutMs = 15_000) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (await evaluate<boolean>(`Boolean(${expression})`).catch(() => false)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`timed out waiting for ${expression}`);
    },
    close: async () => {
      socket.close();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
