import { describe, expect, it } from "vitest";
import { createWorkQueue } from "./queue.ts";

interface Item {
  key: string;
  n: number;
}

describe("createWorkQueue", () => {
  it("runs each conversation's items in order, one at a time, and at most `concurrency` at once", async () => {
    const done: string[] = [];
    const running = new Set<string>();
    let peak = 0;
    const queue = createWorkQueue<Item>({
      concurrency: 2,
      run: async (item) => {
        expect(running.has(item.key)).toBe(false);
        running.add(item.key);
        peak = Math.max(peak, running.size);
        await new Promise((resolve) => setTimeout(resolve, 1 + (item.n % 3)));
        running.delete(item.key);
        done.push(`${item.key}${item.n}`);
      },
      onError: () => {},
    });
    for (let n = 0; n < 5; n += 1) for (const key of ["a", "b", "c"]) queue.push({ key, n });
    expect(queue.waiting()).toBe(13);
    expect(queue.waiting("a")).toBe(4);
    await queue.idle();
    expect(peak).toBe(2);
    for (const key of ["a", "b", "c"]) {
      expect(done.filter((name) => name.startsWith(key))).toEqual([0, 1, 2, 3, 4].map((n) => `${key}${n}`));
    }
  });

  it("reports a failed item and goes on", async () => {
    const failed: number[] = [];
    const done: number[] = [];
    const queue = createWorkQueue<Item>({
      concurrency: 1,
      run: async (item) => {
        if (item.n === 1) throw new Error("boom");
        done.push(item.n);
      },
      onError: (item) => failed.push(item.n),
    });
    for (const n of [0, 1, 2]) queue.push({ key: "a", n });
    await queue.idle();
    expect(failed).toEqual([1]);
    expect(done).toEqual([0, 2]);
  });

  it("stops starting work on stop and says what still runs after the grace period", async () => {
    let release: () => void = () => {};
    const queue = createWorkQueue<Item>({
      concurrency: 1,
      run: () => new Promise<undefined>((resolve) => (release = () => resolve(undefined))),
      onError: () => {},
    });
    queue.push({ key: "a", n: 0 });
    queue.push({ key: "a", n: 1 });
    expect(await queue.stop(30)).toBe(1);
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(queue.running()).toBe(0);
    expect(queue.waiting()).toBe(1);
  });
});

describe("createWorkQueue: retry later", () => {
  it("puts an item that asks to wait back at its conversation's head, without its slot; other conversations run", async () => {
    const done: string[] = [];
    let tries = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const queue = createWorkQueue<Item>({
      concurrency: 1,
      run: async (item) => {
        if (item.key === "a" && item.n === 0) {
          tries += 1;
          // Waits until b has run: had a kept the only slot, b could never have.
          if (tries < 3 || !done.includes("b0")) return { retryInMs: 5 };
          release();
        }
        done.push(`${item.key}${item.n}`);
        return undefined;
      },
      onError: () => {},
    });
    queue.push({ key: "a", n: 0 });
    queue.push({ key: "a", n: 1 });
    queue.push({ key: "b", n: 0 });
    await released;
    await queue.idle();
    expect(done).toEqual(["b0", "a0", "a1"]);
    expect(tries).toBeGreaterThanOrEqual(3);
  });

  it("stops at once with items waiting to be retried (they are not running)", async () => {
    let runs = 0;
    const queue = createWorkQueue<Item>({
      concurrency: 1,
      run: async () => {
        runs += 1;
        return { retryInMs: 60_000 };
      },
      onError: () => {},
    });
    queue.push({ key: "a", n: 0 });
    while (queue.running() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(queue.waiting()).toBe(1);
    expect(await queue.stop(60_000)).toBe(0);
    expect(runs).toBe(1);
  });

  it("issue 31: wake() ends every wait for the chat at once, in each conversation's order, and leaves a disk wait alone", async () => {
    const done: string[] = [];
    const tried = new Set<string>();
    const queue = createWorkQueue<Item>({
      concurrency: 1,
      run: async (item) => {
        const name = `${item.key}${item.n}`;
        // Each head fails its first try: a and b on the chat (an hour's backoff), c on the disk.
        if (item.n === 0 && !tried.has(name)) {
          tried.add(name);
          return { retryInMs: 3_600_000, forChat: item.key !== "c" };
        }
        done.push(name);
        return undefined;
      },
      onError: () => {},
    });
    for (const key of ["a", "b", "c"]) for (const n of [0, 1]) queue.push({ key, n });
    while (tried.size < 3 || queue.running() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(done).toEqual([]);
    expect(queue.wake()).toBe(2);
    while (done.length < 4) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(done).toEqual(["a0", "a1", "b0", "b1"]);
    // c waits on the disk, not the chat: still there, its hour not cut short; a second wake finds nothing.
    expect(queue.waiting("c")).toBe(2);
    expect(queue.wake()).toBe(0);
    expect(await queue.stop(0)).toBe(0);
  });
});
