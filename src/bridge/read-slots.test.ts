import { describe, expect, it } from "vitest";
import { createReadSlots } from "./read-slots.ts";

function slots(overrides: { maxStrangers?: number; tokenMs?: number } = {}) {
  const drops: string[] = [];
  const made = createReadSlots({
    slots: 4,
    strangerSlots: 1,
    maxStrangers: overrides.maxStrangers ?? 8,
    tokenMs: overrides.tokenMs ?? 60_000,
    onDrop: (why) => drops.push(why),
  });
  return { made, drops };
}

describe("createReadSlots", () => {
  it("gives no slot to a request before its token shows, and one per verified body up to the limit", () => {
    const { made } = slots();
    const strangers = Array.from({ length: 8 }, () => made.open(false));
    expect(made.held()).toBe(0);
    // Not holding slots, but being read: the app's busy spell lasts while they are.
    expect(made.busy()).toBe(8);
    const verified = strangers.slice(0, 5).map((ticket) => ticket?.verify());
    expect(verified).toEqual([true, true, true, true, false]);
    expect(made.held()).toBe(4);
    // A URL with the right token asks for its slot at the door: none free.
    expect(made.open(true)).toBeNull();
    // Four verified, one refused a slot (no longer a stranger), three still showing their first bytes.
    expect(made.busy()).toBe(7);
    strangers[0]?.close();
    expect(made.held()).toBe(3);
    expect(made.open(true)).not.toBeNull();
  });

  it("lets bodies without an early token hold only the strangers' share", () => {
    const { made } = slots();
    const [first, second] = [made.open(false), made.open(false)];
    expect(first?.holdAsStranger()).toBe(true);
    expect(second?.holdAsStranger()).toBe(false);
    first?.close();
    expect(made.held()).toBe(0);
  });

  it("drops the oldest stranger for a newer one past maxStrangers, and a stranger whose token is late", async () => {
    const { made, drops } = slots({ maxStrangers: 2, tokenMs: 20 });
    const oldest = made.open(false);
    const next = made.open(false);
    next?.verify();
    const newest = made.open(false);
    const another = made.open(false);
    expect(oldest?.signal.aborted).toBe(true);
    // `next` showed its token: no longer a stranger, never dropped.
    expect(drops).toEqual(["crowded"]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(newest?.signal.aborted).toBe(true);
    expect(another?.signal.aborted).toBe(true);
    expect(next?.signal.aborted).toBe(false);
    expect(drops).toEqual(["crowded", "late", "late"]);
  });
});
