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
      run: () => new Promise<void>((resolve) => (release = resolve)),
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
