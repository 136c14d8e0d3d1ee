import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bridgeWorkDeps } from "../../tests/helpers/bridge-work-deps.ts";
import type { OpenWork } from "../core/bridge/journal.ts";
import { createBridgeWork } from "./bridge-work.ts";
import type { Poster, PostFailure } from "./poster.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A reply journaled before a restart, owed to user `userId` (one conversation each). */
function owedReply(userId: string): OpenWork {
  return {
    message: {
      id: `m-${userId}`,
      at: new Date().toISOString(),
      key: `dm:${userId}`,
      userId,
      username: userId,
      channelId: null,
      channelName: null,
      postId: null,
      text: "hi",
      bytes: 2,
    },
    parts: [`reply to ${userId}`],
    posted: 0,
    dueAt: new Date().toISOString(),
    gaveUp: null,
  };
}

describe("createBridgeWork: the chat taking a post", () => {
  it("wakes only the conversations waiting for the chat; a refused or rate-limited wait runs its own backoff", async () => {
    // "refused": the chat refuses this user's part and the notice in its place; "limited": rate-limited;
    // "down": the chat unreachable on the first try; "ok": takes everything.
    const tries = new Map<string, number>();
    let downOnce = true;
    const answerFor = (userId: string): PostFailure | null => {
      tries.set(userId, (tries.get(userId) ?? 0) + 1);
      if (userId === "refused") return { refused: true, rateLimited: false, retryAfterMs: null, detail: "HTTP 403" };
      if (userId === "limited") return { refused: false, rateLimited: true, retryAfterMs: null, detail: "HTTP 429" };
      if (userId === "down" && downOnce) {
        downOnce = false;
        return { refused: false, rateLimited: false, retryAfterMs: null, detail: "fetch failed" };
      }
      return null;
    };
    const poster: Poster = {
      postText: async (userId) => answerFor(userId),
      postReply: async (userId, parts, from, onPosted) => {
        const failure = answerFor(userId);
        if (failure !== null) return { posted: 0, failed: { part: from, failure } };
        await onPosted(from);
        return { posted: parts.length - from, failed: null };
      },
    };
    const log: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), "ctx-bridge-work-"));
    dirs.push(dir);
    const work = createBridgeWork(
      bridgeWorkDeps({
        poster,
        sessionsDir: dir,
        // An hour's first wait: only a wake can run a conversation again within the test.
        outbox: { retryBaseMs: 3_600_000, retryMaxMs: 3_600_000 },
        conversation: {
          runClaude: async () => {
            throw new Error("not reached: every reply is journaled");
          },
        },
        log: (line) => log.push(line),
      }),
    );
    // Run in this order, one at a time: the three fail, then "ok" is taken and wakes what waits for the chat.
    work.resume(["refused", "limited", "down", "ok"].map(owedReply));
    for (let waited = 0; work.pending().parts > 2 && waited < 2_000; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // "down" went again at once and was delivered; "refused" (part and notice) and "limited" were tried once each.
    expect(Object.fromEntries(tries)).toEqual({ refused: 2, limited: 1, down: 2, ok: 1 });
    expect(work.pending().parts).toBe(2);
    expect(work.queue.waiting()).toBe(2);
    await work.stop(0, () => {});
  });
});

describe("createBridgeWork: chat commands before the conversation", () => {
  it("answers /status in its place in the conversation's queue, without Claude, showing what waits behind it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-bridge-work-"));
    dirs.push(dir);
    const replies: string[] = [];
    const poster: Poster = {
      postText: async () => null,
      postReply: async (_userId, parts, from, onPosted) => {
        for (let part = from; part < parts.length; part += 1) {
          replies.push(parts[part] as string);
          await onPosted(part);
        }
        return { posted: parts.length - from, failed: null };
      },
    };
    const prompts: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const work = createBridgeWork(
      bridgeWorkDeps({
        poster,
        sessionsDir: dir,
        outbox: { retryBaseMs: 1_000, retryMaxMs: 1_000 },
        conversation: {
          limits: { softLimitTokens: 120_000, hardLimitTokens: 180_000, idleMinutes: 30 },
          inputChunkChars: 15_000,
          windowTokens: 200_000,
          maxInputBytes: 1_048_576,
          runClaude: async (request) => {
            prompts.push(request.prompt);
            await held;
            return {
              text: `answer: ${request.prompt}`,
              sessionId: "s-1",
              usage: {},
              contextTokens: 1_000,
              durationMs: 0,
            };
          },
        },
        outputChunkChars: 3_500,
      }),
    );
    const accept = (id: string, text: string) => {
      const message = { ...owedReply("7").message, id, text, bytes: text.length };
      return work.accept({ journaled: message, live: message });
    };
    // "one" holds Claude while /status and "three" queue behind it in the same conversation.
    await accept("m-1", "one");
    await accept("m-2", "/status");
    await accept("m-3", "three");
    release();
    for (let waited = 0; replies.length < 3 && waited < 2_000; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(replies[0]).toBe("answer: one");
    expect(replies[1]).toMatch(/^Context: 1,000 of 200,000 tokens/);
    expect(replies[1]).toContain("Queue: 1 waiting here, 1 in the bridge, 1 running.");
    expect(replies[2]).toBe("answer: three");
    expect(prompts).toEqual(["one", "three"]);
    await work.stop(0, () => {});
  });
});
