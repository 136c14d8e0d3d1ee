// The reply outbox (issue #22, break 3) through the whole bridge, in process: `startBridge` over a temp CTX_HOME,
// Claude replaced by an instant echo, Synology Chat by a fetch the test switches off and on, and the bridge's clock
// by one the test moves. A reply the chat does not take waits (its conversation behind it, other conversations
// going on), survives a stop and a start, and is given up with a notice only after `bridge.deliveryHours`.
// Waits poll for a state (with a generous limit), never for a time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ClaudeProcesses } from "../../src/bridge/claude-runner.ts";
import { type RunningBridge, startBridge } from "../../src/bridge/service.ts";
import { defaultConfig } from "../../src/config/defaults.ts";
import type { JournalWrite } from "../../src/store/bridge/journal-store.ts";
import { collectBridgeStatus } from "../../src/store/bridge/status.ts";

const TOKEN = "outbox-token";
const INCOMING = "https://nas.example:5001/webapi/entry.cgi?api=SYNO.Chat.External&token=%22incoming%22";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Delivered {
  text: string;
  user: string;
}

/** Synology Chat's incoming webhook as a fetch: takes posts unless `down` (or `refuse`) says otherwise. */
function fakeChat() {
  const chat = {
    delivered: [] as Delivered[],
    failedTries: 0,
    /** The chat is unreachable (a network error) for posts to these users; "*" for everyone. */
    down: new Set<string>(),
    /** Answers this HTTP status to posts whose text contains the key. */
    refuse: new Map<string, number>(),
    fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
      const payload = JSON.parse(new URLSearchParams(String(init?.body)).get("payload") ?? "{}") as {
        text: string;
        user_ids: number[];
      };
      const user = String(payload.user_ids[0]);
      if (chat.down.has("*") || chat.down.has(user)) {
        chat.failedTries += 1;
        throw new TypeError("fetch failed");
      }
      for (const [key, status] of chat.refuse) {
        if (payload.text.includes(key)) {
          chat.failedTries += 1;
          return new Response("", { status });
        }
      }
      chat.delivered.push({ text: payload.text, user });
      return new Response('{"success":true}', { status: 200 });
    }) as typeof fetch,
  };
  return chat;
}

function echoClaude(calls: string[]): ClaudeProcesses {
  return {
    run: async (request) => {
      calls.push(request.prompt);
      return {
        text: `echo: ${request.prompt}`,
        sessionId: request.resume ?? `session-${calls.length}`,
        usage: { input_tokens: 10, output_tokens: 5 },
        contextTokens: 1_000,
        durationMs: 0,
      };
    },
    killAll: () => {},
  };
}

async function until(condition: () => boolean, what: string, log: string[] = []): Promise<void> {
  const limit = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > limit) throw new Error(`never happened: ${what}\n${log.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface World {
  env: NodeJS.ProcessEnv;
  chat: ReturnType<typeof fakeChat>;
  claudeCalls: string[];
  log: string[];
  clock: { now: number };
}

function makeWorld(): World {
  const home = mkdtempSync(join(tmpdir(), "ctx-outbox-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return {
    env: { HOME: home, CTX_HOME: join(home, ".ctx") },
    chat: fakeChat(),
    claudeCalls: [],
    log: [],
    clock: { now: Date.parse("2026-03-01T09:00:00.000Z") },
  };
}

async function start(
  world: World,
  bridge: Record<string, unknown> = {},
  journalWrite?: JournalWrite,
): Promise<RunningBridge> {
  const config = defaultConfig();
  config.bridge.synology = { token: TOKEN, incomingUrl: INCOMING, mode: "chatbot" };
  // Short waits between tries, so an outage of many tries passes in milliseconds of the test.
  Object.assign(config.bridge, { paceMs: 0, retryBaseMs: 2, retryMaxMs: 10, stopGraceMs: 2_000, ...bridge });
  const running = await startBridge({
    config,
    env: world.env,
    version: "test",
    port: 0,
    log: (line) => world.log.push(line),
    now: () => new Date(world.clock.now),
    fetch: world.chat.fetch,
    claude: echoClaude(world.claudeCalls),
    ...(journalWrite === undefined ? {} : { journalWrite }),
  });
  cleanups.push(() => running.stop());
  return running;
}

async function send(bridge: RunningBridge, user: number, text: string): Promise<void> {
  const response = await fetch(`${bridge.url}/webhook`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: TOKEN, user_id: String(user), username: `user${user}`, text }).toString(),
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

const textsTo = (world: World, user: number) =>
  world.chat.delivered.filter((post) => post.user === String(user)).map((post) => post.text);

describe("ctx bridge synology: the reply outbox", () => {
  it("break 3: a reply outlives a chat outage of many tries (it was lost after 5 before)", async () => {
    const world = makeWorld();
    const bridge = await start(world);
    world.chat.down.add("*");
    await send(bridge, 1, "during the outage");
    // Far more tries than the old 1/2/4/8 s retries made before they logged the reply as lost.
    await until(() => world.chat.failedTries >= 12, "a dozen failed tries", world.log);
    expect(world.chat.delivered).toEqual([]);
    world.chat.down.clear();
    await until(() => world.chat.delivered.length === 1, "the reply delivered", world.log);
    expect(textsTo(world, 1)).toEqual(["echo: during the outage"]);
    expect(world.log.join("\n")).not.toMatch(/lost after|LOST=/);
    await until(() => world.log.some((line) => / posted=1 /.test(line)), "the done line", world.log);
  });

  it("keeps a blocked conversation's order and holds no slot: other conversations go on, its next message waits", async () => {
    const world = makeWorld();
    // One slot: had the blocked conversation kept it, user 2 would get nothing either.
    const bridge = await start(world, { concurrency: 1 });
    world.chat.down.add("1");
    await send(bridge, 1, "first of user 1");
    await until(() => world.chat.failedTries >= 3, "user 1's reply failing", world.log);
    await send(bridge, 1, "second of user 1");
    await send(bridge, 2, "only message of user 2");
    await until(() => textsTo(world, 2).length === 1, "user 2's reply", world.log);
    expect(textsTo(world, 2)).toEqual(["echo: only message of user 2"]);
    // User 1's second message has not even gone to Claude: it waits behind the undelivered reply.
    expect(world.claudeCalls.some((prompt) => prompt.includes("second of user 1"))).toBe(false);
    await until(() => world.chat.failedTries >= 8, "user 1 still failing", world.log);
    world.chat.down.clear();
    await until(() => textsTo(world, 1).length === 2, "user 1's two replies", world.log);
    expect(textsTo(world, 1)).toEqual(["echo: first of user 1", "echo: second of user 1"]);
  });

  it("issue 31: when the chat takes a post, every conversation waiting on it goes at once, in order, not at the end of its own backoff", async () => {
    const world = makeWorld();
    // A first failed try waits a minute: without the wake the replies below would come long after the test's limit.
    const bridge = await start(world, { retryBaseMs: 60_000, retryMaxMs: 300_000 });
    world.chat.down.add("*");
    await send(bridge, 1, "first of user 1");
    await send(bridge, 2, "only message of user 2");
    await until(() => world.chat.failedTries >= 2, "both replies failing once", world.log);
    await send(bridge, 1, "second of user 1");
    world.chat.down.clear();
    expect(world.chat.delivered).toEqual([]);
    // Someone else's reply gets through: the chat is back for everyone.
    await send(bridge, 3, "after the outage");
    await until(() => world.chat.delivered.length === 4, "every reply owed", world.log);
    expect(textsTo(world, 3)).toEqual(["echo: after the outage"]);
    expect(textsTo(world, 1)).toEqual(["echo: first of user 1", "echo: second of user 1"]);
    expect(textsTo(world, 2)).toEqual(["echo: only message of user 2"]);
    expect(world.chat.failedTries).toBe(2);
  });

  it("stops promptly with replies waiting, shows them in `ctx bridge status`, and the next start delivers them once", async () => {
    const world = makeWorld();
    const first = await start(world);
    world.chat.down.add("*");
    await send(first, 1, "before the stop");
    await until(() => world.chat.failedTries >= 3, "failing tries", world.log);
    await first.stop();
    expect(world.log.join("\n")).toContain("1 reply part(s) wait for the chat; the next start posts them");
    world.clock.now += 90_000;
    const status = await collectBridgeStatus(world.env, new Date(world.clock.now));
    expect(status).toMatchObject({ pendingMessages: 1, pendingParts: 1, oldestPendingAt: "2026-03-01T09:00:00.000Z" });
    expect(status.oldestPendingSeconds).toBe(90);

    world.chat.down.clear();
    const second = await start(world);
    await until(() => world.chat.delivered.length === 1, "the reply after the restart", world.log);
    await second.stop();
    expect(textsTo(world, 1)).toEqual(["echo: before the stop"]);
    // Claude ran once: the restart posted the journaled reply, it did not answer again.
    expect(world.claudeCalls).toHaveLength(1);
    expect(await collectBridgeStatus(world.env)).toMatchObject({ pendingMessages: 0, pendingParts: 0 });
  });

  it("gives a reply up only after deliveryHours, counted across a restart, and tells the person once the chat is back", async () => {
    const world = makeWorld();
    const first = await start(world, { deliveryHours: 2 });
    world.chat.down.add("*");
    await send(first, 1, "never delivered");
    await until(() => world.chat.failedTries >= 3, "failing tries", world.log);
    world.clock.now += 60 * 60_000; // an hour in: still waiting
    await until(() => world.chat.failedTries >= 6, "more failing tries", world.log);
    expect(world.log.join("\n")).not.toContain("gave up");
    await first.stop();

    // The next start is past the deadline of the reply's first due time (not of this start).
    world.clock.now += 61 * 60_000;
    const second = await start(world, { deliveryHours: 2 });
    await until(() => world.log.some((line) => line.includes("gave up 1 reply part(s)")), "the give-up", world.log);
    const gaveUp = world.log.find((line) => line.includes("gave up 1 reply part(s)")) ?? "";
    expect(gaveUp).toMatch(/^bridge: message [0-9a-f-]{36}: gave up 1 reply part\(s\) not delivered within 2 h/);
    expect(gaveUp).toContain("fetch failed");
    await send(second, 1, "asked again while the chat is down");
    await until(() => world.chat.failedTries >= 12, "the notice failing", world.log);
    expect(world.chat.delivered).toEqual([]);

    world.chat.down.clear();
    await until(() => world.chat.delivered.length === 2, "the notice and the next reply", world.log);
    expect(textsTo(world, 1)).toEqual([
      "⚠️ 1 reply part(s) could not be delivered within 2 h and were given up (the answer to your message of 2026-03-01 09:00 UTC). Ask again if you still need it.",
      "echo: asked again while the chat is down",
    ]);
    expect(world.claudeCalls).toHaveLength(2);
  });

  it("a part the chat refuses while it takes other posts is skipped with a notice; a chat that refuses everything keeps it", async () => {
    const world = makeWorld();
    const bridge = await start(world, { outputChunkChars: 200 });
    world.chat.refuse.set("POISON", 400);
    const long = `${"a".repeat(150)} POISON ${"b".repeat(150)}`;
    await send(bridge, 1, long);
    await until(() => world.log.some((line) => / posted=\d+ /.test(line)), "the reply settled", world.log);
    const texts = textsTo(world, 1);
    expect(texts.some((text) => text.includes("⚠️ The chat refused part") && text.includes("HTTP 400"))).toBe(true);
    expect(texts.filter((text) => text.includes("POISON"))).toEqual([]);
    expect(texts.length).toBeGreaterThanOrEqual(2);

    // A wrong token answers 403 to everything: the reply waits for the fix instead of being dropped.
    world.chat.refuse.clear();
    world.chat.refuse.set("", 403);
    await send(bridge, 2, "while every post is refused");
    await until(() => world.chat.failedTries >= 10, "refused tries", world.log);
    expect(textsTo(world, 2)).toEqual([]);
    world.chat.refuse.clear();
    await until(() => textsTo(world, 2).length === 1, "delivered after the fix", world.log);
    expect(textsTo(world, 2)).toEqual(["echo: while every post is refused"]);
  });

  it("a journal that cannot record a posted part (a full disk) holds the rest back; nothing is posted twice or lost", async () => {
    const world = makeWorld();
    const disk = { full: false, refused: 0 };
    // The disk fills up just as 'posted' records are due: every write of one fails (ENOSPC) while it is full.
    const journalWrite: JournalWrite = async (handle, data) => {
      if (disk.full && Buffer.from(data).toString("utf8").includes('"t":"posted"')) {
        disk.refused += 1;
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      return (await handle.write(data, 0, data.length)).bytesWritten;
    };
    const first = await start(world, { outputChunkChars: 200 }, journalWrite);
    disk.full = true;
    await send(first, 1, `${"a".repeat(150)} ${"b".repeat(150)} ${"c".repeat(150)}`);
    await until(() => disk.refused >= 5, "posted records refused", world.log);
    // The first part went out; the others wait until the journal knows it did.
    expect(world.chat.delivered).toHaveLength(1);
    expect(world.log.join("\n")).toContain("could not record a posted part");
    disk.full = false;
    await until(() => world.log.some((line) => / posted=3 /.test(line)), "the reply settled", world.log);
    await first.stop();
    const second = await start(world, { outputChunkChars: 200 });
    await second.stop();
    const texts = textsTo(world, 1);
    expect(texts).toHaveLength(3);
    expect(texts.map((text) => text.slice(0, 6))).toEqual(["[1/3] ", "[2/3] ", "[3/3] "]);
    expect(world.claudeCalls).toHaveLength(1);
  });
});
