// startBridge's steps, each on its own (issue #22, item 8): the store (folders, workdir, the one-bridge lock), the
// journal's recovery, the runner and poster, the work's acceptance, HTTP, and the stop's order.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { startMockSynology } from "../../tests/e2e/harness/mock-synology.ts";
import { bridgeWorkDeps } from "../../tests/helpers/bridge-work-deps.ts";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { defaultConfig } from "../config/defaults.ts";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { listenHttp } from "../http/listener.ts";
import { journalPath, openJournal } from "../store/bridge/journal-store.ts";
import { createWebhookApp } from "./app.ts";
import { openBridgeStore, recoverJournal } from "./bridge-store.ts";
import { createBridgeWork } from "./bridge-work.ts";
import type { ClaudeProcesses } from "./claude-runner.ts";
import { buildRunnerAndPoster, LISTEN_HINTS, startBridge, stopBridge } from "./service.ts";
import { resolveBridgeSettings } from "./settings.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bridge-steps-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const mode = (path: string) => statSync(path).mode & 0o777;

const messageOf = (id: string): JournalMessage => ({
  id,
  at: "2026-01-02T03:04:05Z",
  key: "dm:1",
  userId: "1",
  username: "ann",
  channelId: null,
  channelName: null,
  postId: null,
  text: id,
  bytes: 2,
});

describe("step 1: the store", () => {
  it("makes ctx's folders 0700 and keeps a configured workdir's mode", async () => {
    const root = tempDir();
    const own = await openBridgeStore({
      dir: join(root, "bridge"),
      workdir: join(root, "bridge", "wd"),
      ownWorkdir: true,
    });
    expect(mode(join(root, "bridge"))).toBe(0o700);
    expect(mode(own.workdir)).toBe(0o700);
    await own.release();
    const shared = join(root, "share");
    mkdirSync(shared, { mode: 0o775 });
    execFileSync("chmod", ["0775", shared]);
    const theirs = await openBridgeStore({ dir: join(root, "bridge"), workdir: shared, ownWorkdir: false });
    expect(mode(shared)).toBe(0o775);
    await theirs.release();
  });

  it("refuses a configured workdir that does not exist, and makes none", async () => {
    const root = tempDir();
    const missing = join(root, "nowhere");
    await expect(openBridgeStore({ dir: join(root, "bridge"), workdir: missing, ownWorkdir: false })).rejects.toThrow(
      missing,
    );
    expect(() => statSync(missing)).toThrow();
  });

  it("is the one bridge of its folder until it lets go", async () => {
    const root = tempDir();
    const options = { dir: join(root, "bridge"), workdir: join(root, "bridge", "wd"), ownWorkdir: true };
    const first = await openBridgeStore(options);
    const second = await rejectedCtxError(openBridgeStore({ ...options, lockTimeoutMs: 200 }));
    expect(second.message).toBe(`another ctx bridge is running with ${options.dir}`);
    await first.release();
    const third = await openBridgeStore({ ...options, lockTimeoutMs: 200 });
    await third.release();
  });
});

describe("step 2: the journal's recovery", () => {
  it("hands back what was owed, in order, and says so", async () => {
    const root = tempDir();
    const dir = join(root, "bridge");
    const { journal } = await openJournal(dir);
    for (const id of ["m1", "m2"]) {
      await journal.append({
        t: "accept",
        message: messageOf(id),
      });
    }
    await journal.append({ t: "done", id: "m1" });
    await journal.close();
    const store = await openBridgeStore({ dir, workdir: join(dir, "wd"), ownWorkdir: true });
    const lines: string[] = [];
    const recovered = await recoverJournal(store, { log: (line) => lines.push(line) });
    expect(recovered.open.map((work) => work.message.id)).toEqual(["m2"]);
    expect(lines).toEqual(["bridge: resuming 1 message(s) accepted before the last stop"]);
    await recovered.journal.close();
    await store.release();
  });

  it("refuses a FIFO at the journal's path and lets the lock go", async () => {
    const root = tempDir();
    const dir = join(root, "bridge");
    const options = { dir, workdir: join(dir, "wd"), ownWorkdir: true };
    const store = await openBridgeStore(options);
    execFileSync("mkfifo", [journalPath(dir)]);
    await expect(recoverJournal(store, { log: () => {} })).rejects.toThrow(journalPath(dir));
    const again = await openBridgeStore({ ...options, lockTimeoutMs: 200 });
    await again.release();
  });
});

describe("steps 2 and 5 together: a webhook sent again across a restart", () => {
  it("is known by its post id after the bridge restarted, though its message was answered meanwhile", async () => {
    const home = tempDir();
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    const config = defaultConfig();
    config.bridge.synology = { token: "t0ken", incomingUrl: chat.url, mode: "chatbot" };
    config.bridge.paceMs = 0;
    const lines: string[] = [];
    const claude: ClaudeProcesses = {
      run: async (request) => ({
        text: `answer: ${request.prompt}`,
        sessionId: request.resume ?? "fake-1",
        usage: { input_tokens: 10, output_tokens: 2 },
        contextTokens: 100,
        durationMs: 0,
      }),
      killAll: () => {},
    };
    const start = () =>
      startBridge({
        config,
        env: { HOME: home, CTX_HOME: join(home, ".ctx") },
        version: "test",
        port: 0,
        log: (line) => lines.push(line),
        claude,
      });
    const send = async (url: string) => {
      const body = new URLSearchParams({ token: "t0ken", user_id: "7", username: "ann", post_id: "1234", text: "hi" });
      const response = await fetch(`${url}/webhook`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: body.toString(),
      });
      expect(response.status).toBe(200);
    };
    const first = await start();
    await send(first.url);
    await chat.waitForPosts(1, 20_000);
    await first.stop();
    // As if the first 200 never reached Synology (the bridge killed between fsync and answer): it sends again.
    const second = await start();
    cleanups.push(() => second.stop());
    await send(second.url);
    await second.stop();
    expect(chat.posts.map((post) => post.text)).toEqual(["answer: hi"]);
    expect(lines).toContain("bridge: post 1234 arrived again; already accepted, not run twice");
  });
});

describe("step 3: the runner and the poster", () => {
  it("gives Claude's children no bridge setting or secret, and posts to the incoming URL", async () => {
    const config = defaultConfig();
    const incomingUrl = "https://nas.example/webapi/entry.cgi?api=SYNO.Chat.External&token=%22in-secret%22";
    config.bridge.synology = { token: "out-secret", incomingUrl, mode: "chatbot" };
    config.bridge.paceMs = 0;
    const env = { HOME: tempDir(), PATH: "/usr/bin", CTX_BRIDGE__PORT: "1", COPY: "out-secret" };
    const settings = resolveBridgeSettings(config, env);
    const posted: string[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      posted.push(`${url} ${String(init.body)}`);
      return new Response('{"success":true}', { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const { childEnv, poster } = buildRunnerAndPoster(settings, { env, fetch, log: () => {} }, (text) => text);
    expect(childEnv).toEqual({ HOME: env.HOME, PATH: "/usr/bin" });
    expect(await poster.postText("7", "hello", "test")).toBeNull();
    expect(posted).toHaveLength(1);
    expect(posted[0]?.startsWith(`${incomingUrl} `)).toBe(true);
  });
});

describe("step 4: the work", () => {
  it("queues nothing and owes nothing when the journal cannot keep a message", async () => {
    const failing = {
      path: "/none",
      append: async () => {
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      },
      compact: async () => {},
      close: async () => {},
    };
    const neverPosts = {
      postReply: async () => {
        throw new Error("not reached");
      },
      postText: async () => {
        throw new Error("not reached");
      },
    };
    const work = createBridgeWork(bridgeWorkDeps({ journal: failing, poster: neverPosts, sessionsDir: tempDir() }));
    const message = messageOf("m1");
    await expect(work.accept({ journaled: message, live: message })).rejects.toThrow("no space left");
    expect(work.queue.waiting()).toBe(0);
    expect(work.queue.running()).toBe(0);
    expect(work.pending()).toEqual({ parts: 0, oldestDueAt: null });
  });
});

describe("step 5: HTTP", () => {
  // The listener itself (loopback, a port taken, close) is tested in src/http/listener.test.ts; here, what the
  // bridge tells the person through it.
  it("names a port that is taken and says what to do", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const error = await rejectedCtxError(listenHttp(new Hono(), { host: "127.0.0.1", port, hints: LISTEN_HINTS }));
    expect(error.message).toBe(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    expect(error.hint).toContain("--port");
  });
});

describe("step 5: HTTP, a trickling sender", () => {
  it("is cut off once its request outlasts the time limit, so it cannot hold a body slot", async () => {
    const lines: string[] = [];
    const app = createWebhookApp({
      token: "abc",
      maxInputBytes: 1_048_576,
      version: "test",
      accept: async () => {
        throw new Error("not reached");
      },
      redact: (text) => text,
      now: () => new Date(),
      health: async () => ({}),
      warn: (line) => lines.push(line),
      maxBodiesInFlight: 1,
    });
    const http = await listenHttp(app, { port: 0, hints: LISTEN_HINTS, requestTimeoutMs: 1_000 });
    cleanups.push(() => http.close());
    const socket = connect(http.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.write(
      "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 100000\r\n\r\ntoken=abc",
    );
    // Never sends the rest: the server ends the request (408) and the connection.
    await new Promise<void>((resolve) => socket.on("close", () => resolve()));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // Its one slot is free again: the next request is read, not turned away as busy.
    const next = await fetch(`http://127.0.0.1:${http.port}/webhook`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "token=wrong&user_id=1&text=hi",
    });
    expect(next.status).toBe(401);
    expect(lines.filter((line) => line.includes("failed before it was accepted"))).toHaveLength(1);
  });
});

describe("step 5: HTTP, strangers trickling bodies without the token (issue 31)", () => {
  /** A webhook app on loopback that keeps what it accepts; its slots at the defaults unless `limits` says. */
  async function listenApp(limits: { tokenWithinMs: number; maxStrangersReading?: number }) {
    const accepted: string[] = [];
    const lines: string[] = [];
    const app = createWebhookApp({
      token: "abc",
      maxInputBytes: 1_048_576,
      version: "test",
      accept: async (message) => void accepted.push(message.live.text),
      redact: (text) => text,
      now: () => new Date(),
      health: async () => ({}),
      warn: (line) => lines.push(line),
      ...limits,
    });
    const http = await listenHttp(app, { port: 0, hints: LISTEN_HINTS });
    cleanups.push(() => http.close());
    return { port: http.port, accepted, lines };
  }

  /** Opens a request with no token and sends `text=` and then one byte every 300 ms; resolves with what it heard. */
  function trickle(port: number): { answer: Promise<string>; stop: () => void } {
    const socket = connect(port, "127.0.0.1");
    let heard = "";
    socket.on("data", (chunk) => (heard += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.write(
      "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 100000\r\n\r\ntext=",
    );
    const drip = setInterval(() => socket.write("a"), 300);
    const answer = new Promise<string>((resolve) =>
      socket.on("close", () => {
        clearInterval(drip);
        resolve(heard);
      }),
    );
    cleanups.push(() => {
      clearInterval(drip);
      socket.destroy();
    });
    return { answer, stop: () => socket.destroy() };
  }

  const send = (port: number, text: string) =>
    fetch(`http://127.0.0.1:${port}/webhook`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "abc", user_id: "7", text }).toString(),
    });

  it("more tricklers than the 16 slots keep no valid message out, and each is closed once its token is late", async () => {
    const { port, accepted, lines } = await listenApp({ tokenWithinMs: 1_500 });
    const strangers = Array.from({ length: 24 }, () => trickle(port));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Before: every slot held by a stranger, this was 503 for the whole 30 s request time limit.
    const response = await send(port, "hello while strangers trickle");
    expect(response.status).toBe(200);
    expect(accepted).toEqual(["hello while strangers trickle"]);
    // Each stranger is closed with 408 once it has had its 1.5 s (before: only at the 30 s limit).
    const answers = await Promise.race([
      Promise.all(strangers.map((stranger) => stranger.answer)),
      new Promise<string[]>((resolve) => setTimeout(() => resolve(["still open after 10 s"]), 10_000)),
    ]);
    expect(answers.map((answer) => answer.split("\r\n")[0])).toEqual(
      strangers.map(() => "HTTP/1.1 408 Request Timeout"),
    );
    expect(lines.join("\n")).toContain("showed no token within 1500 ms");
  }, 20_000);

  it("past the strangers' own limit the oldest is closed at once, and a valid message is still read", async () => {
    const { port, accepted } = await listenApp({ tokenWithinMs: 60_000, maxStrangersReading: 4 });
    const strangers: ReturnType<typeof trickle>[] = [];
    for (let i = 0; i < 10; i += 1) {
      strangers.push(trickle(port));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const closed = await Promise.race([
      Promise.all(strangers.slice(0, 6).map((stranger) => stranger.answer)),
      new Promise<string[]>((resolve) => setTimeout(() => resolve(["still open after 10 s"]), 10_000)),
    ]);
    expect(closed.map((answer) => answer.split("\r\n")[0])).toEqual(Array(6).fill("HTTP/1.1 408 Request Timeout"));
    expect((await send(port, "hello")).status).toBe(200);
    expect(accepted).toEqual(["hello"]);
    for (const stranger of strangers) stranger.stop();
  }, 20_000);

  it("strangers dropped in one spell make one warning and one 'no longer busy' line; one closed for room says so", async () => {
    const { port, lines } = await listenApp({ tokenWithinMs: 600, maxStrangersReading: 3 });
    const strangers: ReturnType<typeof trickle>[] = [];
    for (let i = 0; i < 5; i += 1) {
      strangers.push(trickle(port));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answers = await Promise.race([
      Promise.all(strangers.map((stranger) => stranger.answer)),
      new Promise<string[]>((resolve) => setTimeout(() => resolve(["still open after 10 s"]), 10_000)),
    ]);
    expect(answers.map((answer) => answer.split("\r\n")[0])).toEqual(Array(5).fill("HTTP/1.1 408 Request Timeout"));
    // The two oldest made room for newer ones; the other three showed no token in time.
    expect(answers.map((answer) => answer.includes("closed to make room"))).toEqual([true, true, false, false, false]);
    expect(answers.slice(2).every((answer) => answer.includes("no token within 600 ms"))).toBe(true);
    // Before: each 408 ended the spell (strangers being read were not counted), so a warning and a
    // "no longer busy" line each, per stranger.
    expect(lines.filter((line) => line.startsWith("bridge: closed a webhook request"))).toEqual([
      "bridge: closed a webhook request that had shown no token, to make room for a newer one (more than 3 read at once without a token; 408); strangers cannot hold the bridge's slots",
    ]);
    expect(lines.filter((line) => line.includes("no longer busy"))).toEqual([
      "bridge: no longer busy; 0 request(s) were answered 503 unread, 5 closed without a token (2 of them to make room for newer ones)",
    ]);
  }, 20_000);
});

describe("step 6: stop", () => {
  it("stops taking messages first and lets the lock go last", async () => {
    const order: string[] = [];
    await stopBridge({
      http: { close: async () => void order.push("http") },
      work: {
        stop: async (graceMs, killAll) => {
          order.push(`work ${graceMs}`);
          killAll();
          return { cutShort: 1 };
        },
      },
      journal: { close: async () => void order.push("journal") },
      store: { release: async () => void order.push("lock") },
      claude: { killAll: () => order.push("kill") },
      graceMs: 500,
    });
    expect(order).toEqual(["http", "work 500", "kill", "journal", "lock"]);
  });
});
