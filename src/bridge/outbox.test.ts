import { describe, expect, it } from "vitest";
import type { JournalRecord } from "../core/bridge/journal.ts";
import { type Delivery, deliverRound, type OutboxDeps } from "./outbox.ts";
import type { Poster, PostFailure } from "./poster.ts";

const DUE = "2026-03-01T09:00:00.000Z";

function delivery(parts: string[], journaled = true): Delivery {
  return {
    message: {
      id: "m1",
      at: DUE,
      key: "dm:1",
      userId: "1",
      username: "u",
      channelId: null,
      channelName: null,
      postId: null,
      text: "hi",
      bytes: 2,
    },
    parts,
    posted: 0,
    dueAt: DUE,
    gaveUp: null,
    sending: parts,
    journaled: { reply: journaled, posted: 0, gaveUp: false },
    failures: 0,
    lastFailure: null,
  };
}

/** A chat that takes posts unless `down`, and a journal whose appends fail while `full`. */
function world() {
  const state = {
    down: false,
    full: false,
    now: Date.parse(DUE),
    posts: [] as string[],
    records: [] as JournalRecord[],
    log: [] as string[],
  };
  const failure: PostFailure = { refused: false, rateLimited: false, retryAfterMs: null, detail: "fetch failed" };
  const poster: Poster = {
    postText: async (_user, text) => {
      if (state.down) return failure;
      state.posts.push(text);
      return null;
    },
    postReply: async (_user, parts, from, onPosted) => {
      let posted = 0;
      for (let part = from; part < parts.length; part += 1) {
        if (state.down) return { posted, failed: { part, failure } };
        state.posts.push(parts[part] ?? "");
        posted += 1;
        await onPosted(part);
      }
      return { posted, failed: null };
    },
  };
  const deps: OutboxDeps = {
    journal: {
      append: async (record) => {
        if (state.full) throw new Error("ENOSPC: no space left on device");
        state.records.push(record);
      },
    },
    poster,
    now: () => new Date(state.now),
    deliveryHours: 24,
    retryBaseMs: 1_000,
    retryMaxMs: 300_000,
    log: (line) => state.log.push(line),
  };
  return { state, deps };
}

describe("deliverRound", () => {
  it("waits double as long after each failed try, capped, and never past the deadline", async () => {
    const { state, deps } = world();
    const work = delivery(["a"]);
    state.down = true;
    const waits: number[] = [];
    for (let round = 0; round < 12; round += 1) waits.push((await deliverRound(work, deps))?.retryInMs ?? -1);
    expect(waits).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000, 300_000,
    ]);
    state.now = Date.parse(DUE) + 24 * 3_600_000 - 5_000;
    expect(await deliverRound(work, deps)).toEqual({ retryInMs: 5_000, forChat: true });
    expect(state.log.at(-1)).toBe(
      "bridge: message m1: part 1/1 waits in the outbox (fetch failed); next try in 5000 ms",
    );
  });

  it("posts nothing before the reply is journaled: a failed reply record waits, then is written first", async () => {
    const { state, deps } = world();
    const work = delivery(["a", "b"], false);
    state.full = true;
    expect(await deliverRound(work, deps)).toEqual({ retryInMs: 1_000, forChat: false });
    expect(state.posts).toEqual([]);
    state.full = false;
    expect(await deliverRound(work, deps)).toBeNull();
    expect(state.records.map((record) => record.t)).toEqual(["reply", "posted", "posted"]);
    expect(state.records[0]).toEqual({ t: "reply", id: "m1", parts: ["a", "b"], at: DUE });
    expect(state.posts).toEqual(["a", "b"]);
  });

  it("a failed 'posted' record stops the posting until the journal has it: no part is ever posted twice", async () => {
    const { state, deps } = world();
    const work = delivery(["a", "b", "c"]);
    // Part a goes out, its record fails (a full disk): b must not go out before the journal knows a went.
    let appends = 0;
    const append = deps.journal.append;
    deps.journal = {
      append: async (record) => {
        appends += 1;
        if (appends === 1) throw new Error("ENOSPC: no space left on device");
        await append(record);
      },
    };
    const first = await deliverRound(work, deps);
    expect(first).toEqual({ retryInMs: 1_000, forChat: false });
    expect(state.posts).toEqual(["a"]);
    expect(state.log.at(-1)).toContain("nothing more is posted until it can");
    expect(await deliverRound(work, deps)).toBeNull();
    // The next round wrote the missing record before posting b: each part once, each recorded before the next.
    expect(state.posts).toEqual(["a", "b", "c"]);
    expect(state.records).toEqual([
      { t: "posted", id: "m1", part: 0 },
      { t: "posted", id: "m1", part: 1 },
      { t: "posted", id: "m1", part: 2 },
    ]);
  });

  it("past the deadline a failing reply is given up (journaled before the notice), then the notice goes out once", async () => {
    const { state, deps } = world();
    const work = delivery(["a", "b"]);
    state.down = true;
    await deliverRound(work, deps);
    state.now = Date.parse(DUE) + 24 * 3_600_000;
    state.full = true; // the give-up cannot be journaled at first
    expect(await deliverRound(work, deps)).toEqual({ retryInMs: 1_000, forChat: false });
    expect(state.log.some((line) => line.startsWith("bridge: message m1: gave up 2 reply part(s)"))).toBe(true);
    state.full = false;
    // Still down: the give-up is written, the notice waits.
    expect(await deliverRound(work, deps)).toEqual({ retryInMs: 2_000, forChat: true });
    expect(state.records).toEqual([{ t: "gave-up", id: "m1", from: 0, parts: 2, at: "2026-03-02T09:00:00.000Z" }]);
    state.down = false;
    expect(await deliverRound(work, deps)).toBeNull();
    expect(state.posts).toEqual([
      "⚠️ 2 reply part(s) could not be delivered within 24 h and were given up (the answer to your message of 2026-03-01 09:00 UTC). Ask again if you still need it.",
    ]);
  });

  it("waits for the chat (a wake ends it) only when the chat is down, not when it refused or rate-limited the post", async () => {
    const { state, deps } = world();
    const answers: PostFailure[] = [];
    const next = () => answers.shift() ?? null;
    deps.poster = {
      postText: async () => next(),
      postReply: async (_user, _parts, from) => {
        const failure = next();
        return failure === null ? { posted: 0, failed: null } : { posted: 0, failed: { part: from, failure } };
      },
    };
    const refused: PostFailure = { refused: true, rateLimited: false, retryAfterMs: null, detail: "HTTP 403" };
    const limited: PostFailure = { refused: false, rateLimited: true, retryAfterMs: 3_000, detail: "HTTP 429" };
    const down: PostFailure = { refused: false, rateLimited: false, retryAfterMs: null, detail: "HTTP 502" };
    // The part refused, and the notice in its place too: a per-user refusal, not an outage.
    answers.push(refused, refused);
    expect(await deliverRound(delivery(["a"]), deps)).toEqual({ retryInMs: 1_000, forChat: false });
    answers.push(limited);
    expect(await deliverRound(delivery(["a"]), deps)).toEqual({ retryInMs: 3_000, forChat: false });
    // The part refused, and the notice failed on a chat that went down meanwhile: that wait is for the chat.
    answers.push(refused, down);
    expect(await deliverRound(delivery(["a"]), deps)).toEqual({ retryInMs: 1_000, forChat: true });
    expect(state.posts).toEqual([]);
  });
});
