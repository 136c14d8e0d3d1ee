// The "working on it" notice through the whole bridge (startBridge in-process, a fake Claude, the mock Synology):
// a slow turn gets one notice before its reply; a slow chat command gets none. Nothing here waits on a clock: the
// fake Claude and the fake summariser hold their answers until the chat shows what the test waits for.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type MockSynology, type RecordedPost, startMockSynology } from "../../tests/e2e/harness/mock-synology.ts";
import { defaultConfig } from "../config/defaults.ts";
import type { ClaudeProcesses, ClaudeTurnRequest } from "./claude-runner.ts";
import { type RunningBridge, startBridge } from "./service.ts";
import { WORKING_NOTICE_TEXT } from "./working-notice.ts";

const TOKEN = "outgoing-secret-token";
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Claude replaced: answers at once, or first waits for what `holdUntil` waits for (the prompt decides). */
function fakeClaude(holdUntil: (request: ClaudeTurnRequest) => Promise<unknown>): ClaudeProcesses {
  let sessions = 0;
  return {
    run: async (request) => {
      await holdUntil(request);
      sessions += 1;
      return {
        text: `answer: ${request.prompt.split("\n")[0]}`,
        sessionId: request.resume ?? `fake-${sessions}`,
        usage: { input_tokens: 100, output_tokens: 20 },
        contextTokens: 1_000,
        durationMs: 0,
      };
    },
    killAll: () => {},
  };
}

const postsTo = (chat: MockSynology, user: string): RecordedPost[] =>
  chat.posts.filter((post) => JSON.stringify(post.userIds) === JSON.stringify([Number(user)]));

/** Resolves once `user` has had `count` posts. */
async function waitForPostsTo(chat: MockSynology, user: string, count: number): Promise<void> {
  while (postsTo(chat, user).length < count) await chat.waitForPosts(chat.posts.length + 1, 20_000);
}

async function setup(
  claude: ClaudeProcesses,
  configure: (config: ReturnType<typeof defaultConfig>) => void = () => {},
  summaryClient?: Parameters<typeof startBridge>[0]["summaryClient"],
): Promise<{ bridge: RunningBridge; chat: MockSynology }> {
  const home = mkdtempSync(join(tmpdir(), "ctx-bridge-notice-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const chat = await startMockSynology();
  cleanups.push(() => chat.close());
  const config = defaultConfig();
  config.bridge.synology = { token: TOKEN, incomingUrl: chat.url, mode: "chatbot" };
  config.bridge.paceMs = 0;
  config.bridge.workingNoticeSeconds = 1;
  configure(config);
  const bridge = await startBridge({
    config,
    env: { HOME: home, CTX_HOME: join(home, ".ctx") },
    version: "test",
    port: 0,
    log: () => {},
    claude,
    ...(summaryClient === undefined ? {} : { summaryClient }),
  });
  cleanups.push(() => bridge.stop());
  return { bridge, chat };
}

async function send(bridge: RunningBridge, user: string, text: string): Promise<void> {
  const response = await fetch(`${bridge.url}/webhook`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: TOKEN, user_id: user, username: `user${user}`, text }).toString(),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

describe("the working notice", () => {
  it("a turn that outlasts bridge.workingNoticeSeconds gets one notice, posted before its reply", async () => {
    let chat: MockSynology | null = null;
    // Claude answers only once the person has seen the notice (on main, without one, the turn would wait out
    // the mock's 20 s and fail).
    const claude = fakeClaude(async () => {
      if (chat !== null) await waitForPostsTo(chat, "7", 1);
    });
    const started = await setup(claude);
    chat = started.chat;
    await send(started.bridge, "7", "a long task");
    await waitForPostsTo(started.chat, "7", 2);
    expect(postsTo(started.chat, "7").map((post) => post.text)).toEqual([WORKING_NOTICE_TEXT, "answer: a long task"]);
  });

  it("a slow chat command gets no notice; another person's slow turn does, meanwhile", async () => {
    let chat: MockSynology | null = null;
    let openSummary: () => void = () => {};
    const summaryGate = new Promise<void>((resolve) => (openSummary = resolve));
    const claude = fakeClaude(async (request) => {
      if (chat !== null && request.prompt.startsWith("slow")) await waitForPostsTo(chat, "8", 1);
    });
    // `/new` summarises the conversation; the summariser holds it until person 8's turn is over.
    const summaryClient = {
      provider: "anthropic" as const,
      model: "fake",
      complete: async () => {
        await summaryGate;
        throw new Error("no summary from the fake");
      },
    };
    const started = await setup(
      claude,
      (config) => {
        config.summaries.provider = "anthropic";
      },
      summaryClient,
    );
    chat = started.chat;
    for (const text of ["one", "two", "three"]) await send(started.bridge, "7", text);
    await waitForPostsTo(started.chat, "7", 3);
    await send(started.bridge, "7", "/new");
    await send(started.bridge, "8", "slow task");
    // Person 8's notice is due a second after their message, so /new (sent first) has been running longer.
    await waitForPostsTo(started.chat, "8", 2);
    openSummary();
    await waitForPostsTo(started.chat, "7", 4);
    expect(postsTo(started.chat, "8").map((post) => post.text)).toEqual([WORKING_NOTICE_TEXT, "answer: slow task"]);
    const seven = postsTo(started.chat, "7").map((post) => post.text);
    expect(seven).toHaveLength(4);
    expect(seven).not.toContain(WORKING_NOTICE_TEXT);
    expect(seven[3]).toContain("Started a fresh Claude session");
  });
});
