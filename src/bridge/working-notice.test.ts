import { describe, expect, it } from "vitest";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { startWorkingNotice, WORKING_NOTICE_TEXT, wantsWorkingNotice } from "./working-notice.ts";

/** A hand-driven clock: `fire()` runs the pending timer as if its time had come. */
function manualTimer() {
  let pending: { run: () => void; ms: number } | null = null;
  return {
    setTimer: (run: () => void, ms: number) => {
      pending = { run, ms };
      return pending;
    },
    clearTimer: (timer: unknown) => {
      if (timer === pending) pending = null;
    },
    fire: () => {
      const due = pending;
      pending = null;
      due?.run();
    },
    pendingMs: () => pending?.ms ?? null,
  };
}

const message = (text: string, extra: Partial<JournalMessage> = {}): JournalMessage => ({
  id: "m1",
  key: "dm:7",
  userId: "7",
  username: "ann",
  channelId: null,
  channelName: null,
  at: "2026-01-02T03:04:05Z",
  postId: null,
  text,
  bytes: text.length,
  ...extra,
});

describe("startWorkingNotice", () => {
  it("posts the notice once when the turn outlasts the setting, and stop() then has nothing to wait for", async () => {
    const clock = manualTimer();
    const posted: string[] = [];
    const stop = startWorkingNotice({
      afterSeconds: 20,
      post: async (text) => void posted.push(text),
      warn: () => {},
      ...clock,
    });
    expect(clock.pendingMs()).toBe(20_000);
    clock.fire();
    clock.fire();
    await stop();
    expect(posted).toEqual([WORKING_NOTICE_TEXT]);
  });

  it("posts nothing when the answer comes first, even if the timer would still run", async () => {
    const clock = manualTimer();
    const posted: string[] = [];
    let captured: (() => void) | null = null;
    const stop = startWorkingNotice({
      afterSeconds: 20,
      post: async (text) => void posted.push(text),
      warn: () => {},
      setTimer: (run, ms) => {
        captured = run;
        return clock.setTimer(run, ms);
      },
      clearTimer: clock.clearTimer,
    });
    await stop();
    expect(clock.pendingMs()).toBeNull();
    // A timer callback that was already queued when stop() ran must not post either.
    (captured as (() => void) | null)?.();
    expect(posted).toEqual([]);
  });

  it("holds the reply back until a notice already on its way has arrived, so it never follows the reply", async () => {
    const clock = manualTimer();
    const order: string[] = [];
    let arrive: () => void = () => {};
    const stop = startWorkingNotice({
      afterSeconds: 1,
      post: (text) =>
        new Promise<void>((resolve) => {
          arrive = () => {
            order.push(text);
            resolve();
          };
        }),
      warn: () => {},
      ...clock,
    });
    clock.fire();
    const stopped = stop().then(() => order.push("reply"));
    await Promise.resolve();
    expect(order).toEqual([]);
    arrive();
    await stopped;
    expect(order).toEqual([WORKING_NOTICE_TEXT, "reply"]);
  });

  it("a failed notice is logged and does not fail the turn", async () => {
    const clock = manualTimer();
    const warnings: string[] = [];
    const stop = startWorkingNotice({
      afterSeconds: 1,
      post: async () => {
        throw new Error("chat unreachable");
      },
      warn: (line) => warnings.push(line),
      ...clock,
    });
    clock.fire();
    await stop();
    expect(warnings).toEqual(["bridge: the working notice was not posted: chat unreachable"]);
  });

  it("0 seconds turns it off", async () => {
    const clock = manualTimer();
    const stop = startWorkingNotice({ afterSeconds: 0, post: async () => {}, warn: () => {}, ...clock });
    expect(clock.pendingMs()).toBeNull();
    await stop();
  });
});

describe("wantsWorkingNotice", () => {
  it("is for prompts only: not for chat commands, refusals or empty messages", () => {
    expect(wantsWorkingNotice(message("please refactor the parser"))).toBe(true);
    expect(wantsWorkingNotice(message("/status"))).toBe(false);
    expect(wantsWorkingNotice(message(" /NEW "))).toBe(false);
    expect(wantsWorkingNotice(message("/forget"))).toBe(false);
    expect(wantsWorkingNotice(message("   "))).toBe(false);
    expect(wantsWorkingNotice(message("", { refused: "too-large", bytes: 2_000_000 }))).toBe(false);
    expect(wantsWorkingNotice(message("", { refused: "invalid-utf8" }))).toBe(false);
  });
});
