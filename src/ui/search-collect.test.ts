// When the collection runs: after the work at hand, once for searches that come together, never after stop.
import { describe, expect, it } from "vitest";
import { createSearchCollector } from "./search-collect.ts";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("createSearchCollector", () => {
  it("collects after the current work, once for searches that come together", async () => {
    let collected = 0;
    const collector = createSearchCollector(() => collected++);
    collector.searched();
    collector.searched();
    expect(collected).toBe(0);
    await nextTurn();
    expect(collected).toBe(1);
    collector.searched();
    await nextTurn();
    expect(collected).toBe(2);
  });

  it("collects nothing once stopped", async () => {
    let collected = 0;
    const collector = createSearchCollector(() => collected++);
    collector.searched();
    collector.stop();
    await nextTurn();
    expect(collected).toBe(0);
  });

  it("exposes V8's own collection on this Node when given none (the flag and the context it takes exist)", async () => {
    const collector = createSearchCollector();
    collector.searched();
    await nextTurn();
    collector.stop();
  });
});
