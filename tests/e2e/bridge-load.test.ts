// Load and crash safety of `ctx bridge synology` (stub Claude, mock Synology Chat): 200 messages from 10 users
// posted as fast as possible are each answered exactly once, in order per user; a bridge SIGKILLed mid-run and
// started again answers the rest from its journal, nothing lost and nothing twice.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type BridgeProcess, startBridgeProcess } from "./harness/bridge-process.ts";
import { type RecordedPost, startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox, type Sandbox } from "./harness/sandbox.ts";

const STUB = fileURLToPath(new URL("./harness/stub-claude.mjs", import.meta.url));
const TOKEN = "load-token";
const USERS = 10;
const PER_USER = 20;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function bridgeEnv(chatUrl: string, sandbox: Sandbox, extra: Record<string, string>): Record<string, string> {
  return {
    CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
    CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chatUrl,
    CTX_BRIDGE__SYNOLOGY__MODE: "chatbot",
    CTX_BRIDGE__CLAUDE__COMMAND: STUB,
    CTX_BRIDGE__PACE_MS: "0",
    STUB_CLAUDE_COUNTER: join(sandbox.root, "claude-calls"),
    ...extra,
  };
}

/** All 200 messages, users interleaved, each user's in order; resolves with the ids whose webhook got 200. */
async function sendAll(bridge: BridgeProcess): Promise<string[]> {
  const accepted: string[] = [];
  for (let round = 0; round < PER_USER; round += 1) {
    const sends = Array.from({ length: USERS }, async (_, user) => {
      const text = `u${user} m${round}`;
      const answer = await bridge.post({ token: TOKEN, user_id: String(100 + user), username: `u${user}`, text });
      if (answer.status === 200) accepted.push(text);
    });
    await Promise.all(sends);
  }
  return accepted;
}

/** Per user, the message numbers answered, in the order their replies arrived. */
function answeredInOrder(posts: readonly RecordedPost[]): Map<number, number[]> {
  const byUser = new Map<number, number[]>();
  for (const post of posts) {
    const match = /^echo \d+: u(\d+) m(\d+)$/.exec(post.text);
    if (match === null) throw new Error(`unexpected post: ${post.text}`);
    const user = Number(match[1]);
    expect(post.userIds).toEqual([100 + user]);
    byUser.set(user, [...(byUser.get(user) ?? []), Number(match[2])]);
  }
  return byUser;
}

const everyMessage = Array.from({ length: PER_USER }, (_, i) => i);

describe("ctx bridge synology under load", () => {
  it("answers 200 messages from 10 users exactly once, in order per user", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    const bridge = await startBridgeProcess(sandbox, bridgeEnv(chat.url, sandbox, {}));
    cleanups.push(async () => {
      bridge.child.kill("SIGKILL");
      await bridge.exited;
    });
    const accepted = await sendAll(bridge);
    expect(accepted).toHaveLength(USERS * PER_USER);
    const posts = await chat.waitForPosts(USERS * PER_USER, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more may arrive
    expect(chat.posts).toHaveLength(USERS * PER_USER);
    const byUser = answeredInOrder(posts);
    for (let user = 0; user < USERS; user += 1) expect(byUser.get(user)).toEqual(everyMessage);
    bridge.child.kill("SIGTERM");
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
  }, 180_000);

  it("killed with SIGKILL mid-run and started again, answers the rest: nothing lost, nothing twice", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    // One conversation at a time and a slow Claude, so the 200 messages are all accepted before the 60th
    // Claude run kills the bridge (from inside the run: no reply is half-posted at that moment).
    const first = await startBridgeProcess(
      sandbox,
      bridgeEnv(chat.url, sandbox, {
        CTX_BRIDGE__CONCURRENCY: "1",
        STUB_CLAUDE_DELAY_MS: "40",
        STUB_CLAUDE_KILL_PARENT_AT: "60",
      }),
    );
    const accepted = await sendAll(first);
    expect(accepted).toHaveLength(USERS * PER_USER);
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    const beforeRestart = chat.posts.length;
    expect(beforeRestart).toBe(59);

    const second = await startBridgeProcess(sandbox, bridgeEnv(chat.url, sandbox, {}));
    cleanups.push(async () => {
      second.child.kill("SIGKILL");
      await second.exited;
    });
    expect(second.stderr()).toContain(`resuming ${USERS * PER_USER - beforeRestart} message(s)`);
    const posts = await chat.waitForPosts(USERS * PER_USER, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(chat.posts).toHaveLength(USERS * PER_USER);
    const byUser = answeredInOrder(posts);
    for (let user = 0; user < USERS; user += 1) expect(byUser.get(user)).toEqual(everyMessage);
  }, 180_000);
});

describe("ctx bridge synology stopping", () => {
  it("on SIGTERM ends a Claude turn still running after the grace period, exits 0, and answers it after a restart", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    const env = bridgeEnv(chat.url, sandbox, { CTX_BRIDGE__STOP_GRACE_MS: "300" });
    const first = await startBridgeProcess(sandbox, { ...env, STUB_CLAUDE_MODE: "hang" });
    expect((await first.post({ token: TOKEN, user_id: "100", username: "u0", text: "u0 m0" })).status).toBe(200);
    const calls = join(sandbox.root, "claude-calls");
    const deadline = Date.now() + 30_000;
    while (!existsSync(calls) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toContain("stopping with 1 conversation(s) mid-turn");
    expect(chat.posts).toHaveLength(0);

    const second = await startBridgeProcess(sandbox, env);
    cleanups.push(async () => {
      second.child.kill("SIGKILL");
      await second.exited;
    });
    expect(second.stderr()).toContain("resuming 1 message(s)");
    const [post] = await chat.waitForPosts(1);
    expect(post?.text).toBe("echo 2: u0 m0");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chat.posts).toHaveLength(1);
  }, 60_000);
});
