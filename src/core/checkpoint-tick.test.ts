import { describe, expect, it } from "vitest";
import { countMessageLines, finishTick, planTick } from "./checkpoint-tick.ts";

describe("checkpoint ticks", () => {
  it("counts user and assistant lines, not progress or system lines", () => {
    const text = [
      '{"type":"user","message":{}}',
      '{"type":"assistant","message":{}}',
      '{"type":"progress","data":{}}',
      '{"type":"system","subtype":"turn_duration"}',
    ].join("\n");
    expect(countMessageLines(text)).toBe(2);
  });

  it("starts counting afresh for a new session without a checkpoint", () => {
    const plan = planTick(null, "s1", 5_000, 1_000_000);
    expect(plan).toEqual({
      next: { sessionId: "s1", offset: 5_000, messages: 0 },
      checkpoint: false,
      read: { from: 5_000, to: 5_000 },
    });
  });

  it("reads only what the transcript grew by, and takes a checkpoint every N messages", () => {
    let mark = { sessionId: "s1", offset: 1_000, messages: 0 };
    const first = finishTick(planTick(mark, "s1", 1_800, 1_000_000), 12, 20);
    expect(first.read).toEqual({ from: 1_000, to: 1_800 });
    expect(first.checkpoint).toBe(false);
    mark = first.next;
    const second = finishTick(planTick(mark, "s1", 2_500, 1_000_000), 9, 20);
    expect(second.checkpoint).toBe(true);
    expect(second.next).toEqual({ sessionId: "s1", offset: 2_500, messages: 0 });
  });

  it("a shrunk (replaced) transcript or another session resets the count", () => {
    expect(planTick({ sessionId: "s1", offset: 9_000, messages: 15 }, "s1", 100, 1_000).next.messages).toBe(0);
    expect(planTick({ sessionId: "s1", offset: 100, messages: 15 }, "s2", 200, 1_000).next).toEqual({
      sessionId: "s2",
      offset: 200,
      messages: 0,
    });
  });

  it("bounds how much it reads after a long quiet stretch", () => {
    expect(planTick({ sessionId: "s1", offset: 0, messages: 0 }, "s1", 50_000_000, 4_000_000).read).toEqual({
      from: 46_000_000,
      to: 50_000_000,
    });
  });
});
