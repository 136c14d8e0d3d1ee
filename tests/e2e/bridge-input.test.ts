// `ctx bridge synology` as a process, with a stub Claude and a mock Synology Chat: configuration errors, the
// webhook's refusals (wrong token, non-form bodies, missing fields, 1 MiB + 1 byte, a body over the HTTP cap,
// invalid UTF-8), a user name made to forge log lines, and a Claude that fails, prints non-JSON or hangs: each gets
// a clear reply or HTTP answer and a log line, and the bridge keeps serving the next message.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type BridgeProcess, startBridgeProcess } from "./harness/bridge-process.ts";
import { type MockSynology, startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const STUB = fileURLToPath(new URL("./harness/stub-claude.mjs", import.meta.url));
const TOKEN = "outgoing-secret-token";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(extra: Record<string, string> = {}): Promise<{
  sandbox: Sandbox;
  chat: MockSynology;
  bridge: BridgeProcess;
  counter: string;
}> {
  const sandbox = await createSandbox({ git: false });
  cleanups.push(() => sandbox.cleanup());
  const chat = await startMockSynology();
  cleanups.push(() => chat.close());
  const counter = join(sandbox.root, "claude-calls");
  const bridge = await startBridgeProcess(sandbox, {
    CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
    CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
    CTX_BRIDGE__CLAUDE__COMMAND: STUB,
    CTX_BRIDGE__PACE_MS: "50",
    CTX_BRIDGE__RETRY_BASE_MS: "20",
    STUB_CLAUDE_COUNTER: counter,
    ...extra,
  });
  cleanups.push(async () => {
    bridge.child.kill("SIGKILL");
    await bridge.exited;
  });
  return { sandbox, chat, bridge, counter };
}

async function expectGone(pid: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe("ESRCH");
      return;
    }
    if (Date.now() > deadline) throw new Error(`process ${pid} outlived the Claude timeout`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const message = (text: string, user = "7") => ({ token: TOKEN, user_id: user, username: `user${user}`, text });

describe("ctx bridge synology: configuration", () => {
  it("refuses to start without the token or the incoming URL, naming the setting", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const noToken = await runCtx(sandbox, ["bridge", "synology"], {
      env: { CTX_BRIDGE__SYNOLOGY__INCOMING_URL: "http://127.0.0.1:9/x" },
    });
    expect(noToken.exitCode).toBe(1);
    expect(noToken.stderr).toContain("ctx: bridge.synology.token is not set");
    expect(noToken.stderr).toContain("CTX_BRIDGE__SYNOLOGY__TOKEN");
    const noUrl = await runCtx(sandbox, ["bridge", "synology"], { env: { CTX_BRIDGE__SYNOLOGY__TOKEN: "t" } });
    expect(noUrl.stderr).toContain("ctx: bridge.synology.incomingUrl is not set");
  });
});

describe("ctx bridge synology: the journal's path", () => {
  it("break 6: a FIFO at journal.log is refused at start within a bounded time, named in the error", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const bridgeDir = join(String(sandbox.env.CTX_HOME), "bridge");
    mkdirSync(bridgeDir, { recursive: true, mode: 0o700 });
    const journal = join(bridgeDir, "journal.log");
    execFileSync("mkfifo", [journal]);
    const result = await runCtx(sandbox, ["bridge", "synology", "--port", "0"], {
      env: { CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN, CTX_BRIDGE__SYNOLOGY__INCOMING_URL: "http://127.0.0.1:9/x" },
      timeoutMs: 20_000,
    });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`ctx: the bridge journal ${journal} is not a regular file`);
  });
});

describe("ctx bridge synology: bad input", () => {
  it("answers a wrong or missing token with 401 and runs nothing", async () => {
    const { chat, bridge, counter } = await setup();
    expect((await bridge.post({ ...message("hello"), token: "wrong" })).status).toBe(401);
    expect((await bridge.post({ user_id: "7", text: "hello" })).status).toBe(401);
    // A good message afterwards proves the bridge was listening and would have run Claude.
    expect((await bridge.post(message("ping"))).status).toBe(200);
    const [post] = await chat.waitForPosts(1);
    expect(post?.text).toBe("echo 1: ping");
    expect(readFileSync(counter, "utf8").trim().split("\n")).toEqual(["ping"]);
    expect(bridge.stderr()).toContain("refused a webhook with a wrong or missing token");
  });

  it("refuses non-form bodies and missing fields over HTTP, and replies in the chat where it can", async () => {
    const { chat, bridge, counter } = await setup();
    expect((await bridge.postRaw(JSON.stringify(message("hi")), "application/json")).status).toBe(415);
    expect((await bridge.post({ token: TOKEN, text: "no user" })).status).toBe(400);
    expect((await bridge.post({ token: TOKEN, user_id: "7" })).status).toBe(200);
    const invalid = `token=${TOKEN}&user_id=7&text=%FF%FEbad`;
    expect((await bridge.postRaw(invalid)).status).toBe(200);
    const tooBig = "a".repeat(1_048_577);
    expect((await bridge.post(message(tooBig))).status).toBe(200);
    expect((await bridge.post(message("still there?"))).status).toBe(200);
    const posts = await chat.waitForPosts(5);
    expect(posts.map((post) => post.text)).toEqual([
      expect.stringContaining("did not arrive as the form Synology Chat sends (application/x-www-form-urlencoded)"),
      "Your message was empty, so there was nothing to send to Claude.",
      "Your message could not be read: it is not valid UTF-8 text, so it was not sent to Claude.",
      expect.stringContaining("Your message is 1.00 MiB (1,048,577 bytes), over this bridge's limit of 1.00 MiB"),
      "echo 1: still there?",
    ]);
    expect(readFileSync(counter, "utf8").trim().split("\n")).toEqual(["still there?"]);
    expect(bridge.stderr()).toContain('refused a webhook with content type "application/json"');
    expect(bridge.stderr()).toContain("missing user_id or text");
  });

  it("break 4: a body over the HTTP cap gets 413 and a reply naming the limit, in order, and Claude never sees it", async () => {
    const { chat, bridge, counter } = await setup();
    expect((await bridge.post(message("first"))).status).toBe(200);
    // 1 MiB * 3 + 64 KiB is the cap; this body passes it by ~90 KB (the rest is never read).
    const overCap = `token=${TOKEN}&user_id=7&username=user7&post_id=501&text=${"a".repeat(3_300_000)}`;
    expect((await bridge.postRaw(overCap)).status).toBe(413);
    expect((await bridge.post(message("second"))).status).toBe(200);
    const posts = await chat.waitForPosts(3);
    expect(posts.map((post) => post.text)).toEqual([
      "echo 1: first",
      expect.stringMatching(/^Your message is over this bridge's limit of 1\.00 MiB \(1,048,576 bytes\)/),
      "echo 2: second",
    ]);
    expect(readFileSync(counter, "utf8").trim().split("\n")).toEqual(["first", "second"]);
    expect(bridge.stderr()).toContain("refused a webhook body over 3211264 bytes from user 7");
  });

  it("a user name with a newline or ESC cannot forge a log line or reach the terminal raw", async () => {
    const { chat, bridge } = await setup();
    const forged = { token: TOKEN, user_id: "7", username: "x\nbridge: forged line", text: "hi" };
    const escaped = { token: TOKEN, user_id: "8", username: "y\u001b]0;owned\u0007\u001b[2J", text: "hi" };
    expect((await bridge.post(forged)).status).toBe(200);
    expect((await bridge.post(escaped)).status).toBe(200);
    await chat.waitForPosts(2);
    // Two conversations run in parallel: their lines may come in either order.
    await bridge.waitForLog(/x\\nbridge: forged line/);
    const log = await bridge.waitForLog(/y\\u001b\]0;owned/);
    expect(log.split("\n").filter((line) => line.startsWith("bridge: forged"))).toEqual([]);
    expect(log).not.toContain("\u001b");
    expect(log).not.toContain("\u0007");
  });

  for (const [mode, expected] of [
    ["fail", "Claude exited with code 3"],
    ["garbage", "Claude Code printed no JSON result"],
    ["hang", "Claude did not answer within 2 s"],
  ] as const) {
    it(`tells the person when Claude ${mode === "hang" ? "times out" : mode === "fail" ? "exits non-zero" : "prints non-JSON"}, and keeps serving`, async () => {
      const pidFile = join(tmpdir(), `ctx-bridge-stub-pids-${process.pid}-${mode}`);
      const { chat, bridge, sandbox } = await setup({
        STUB_CLAUDE_MODE: mode,
        CTX_BRIDGE__CLAUDE__TIMEOUT_MS: "2000",
        STUB_CLAUDE_PIDS: pidFile,
      });
      expect((await bridge.post(message("first"))).status).toBe(200);
      const [post] = await chat.waitForPosts(1);
      expect(post?.text).toContain("Claude could not answer this message");
      expect(post?.text).toContain(expected);
      await bridge.waitForLog(/bridge: s-[0-9a-f]{8} user7 in=5B parts=1 .* FAILED posted=1 time=\d+ms/);
      // Claude's stderr is the log's, never the chat's (break 5: it may quote the command line).
      if (mode === "fail") {
        expect(post?.text).not.toContain("failing on purpose");
        expect(bridge.stderr()).toContain("bridge: Claude exited with code 3: stub claude: failing on purpose");
      }
      // Still serving: /status answers from the session file.
      expect((await bridge.post(message("/status"))).status).toBe(200);
      const posts = await chat.waitForPosts(2);
      expect(posts[1]?.text).toContain("Messages: 1 (0 Claude turns");
      expect(existsSync(join(sandbox.ctxHome, "bridge", "sessions"))).toBe(true);
      if (mode === "hang") {
        // The timeout ended the whole process group: the stub and the child it started.
        const pids = readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
        expect(pids).toHaveLength(2);
        for (const pid of pids) await expectGone(pid);
      }
    });
  }
});
