import { describe, expect, it } from "vitest";
import {
  type CheckpointMark,
  countMessageLines,
  finishTick,
  MAX_MARKED_SESSIONS,
  parseCheckpointMark,
  planTick,
} from "./checkpoint-tick.ts";

const now = new Date("2026-11-22T10:00:00.000Z");
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const markOf = (sessions: CheckpointMark["sessions"]): CheckpointMark => ({ sessions });
const count = (offset: number, messages: number, updatedAt = now.toISOString()) => ({ offset, messages, updatedAt });

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
    const plan = planTick(null, "s1", 5_000, 1_000_000, now);
    expect(plan.read).toEqual({ from: 5_000, to: 5_000 });
    expect(finishTick(plan, 0, 20)).toEqual({
      next: markOf({ s1: count(5_000, 0) }),
      checkpoint: false,
    });
  });

  it("reads only what the transcript grew by, and takes a checkpoint every N messages", () => {
    let mark = markOf({ s1: count(1_000, 0) });
    const plan = planTick(mark, "s1", 1_800, 1_000_000, at(1));
    expect(plan.read).toEqual({ from: 1_000, to: 1_800 });
    const first = finishTick(plan, 12, 20);
    expect(first.checkpoint).toBe(false);
    mark = first.next;
    const second = finishTick(planTick(mark, "s1", 2_500, 1_000_000, at(2)), 9, 20);
    expect(second.checkpoint).toBe(true);
    expect(second.next).toEqual(markOf({ s1: count(2_500, 0, at(2).toISOString()) }));
  });

  it("two sessions alternating in one project each reach their interval", () => {
    let mark: CheckpointMark | null = null;
    const sizes: Record<string, number> = { a: 0, b: 0 };
    const checkpoints: string[] = [];
    for (let round = 1; round <= 30; round++) {
      for (const id of ["a", "b"]) {
        sizes[id] = (sizes[id] ?? 0) + 100;
        const plan = planTick(mark, id, sizes[id] ?? 0, 1_000_000, at(round));
        // 100 bytes, 2 messages per tick; what the hook counts is what the plan says to read.
        const tick = finishTick(plan, (plan.read.to - plan.read.from) / 50, 20);
        if (tick.checkpoint) checkpoints.push(`${id}@${round}`);
        mark = tick.next;
      }
    }
    // The first tick of each session only sets its offset; then 2 messages a tick, 20 per checkpoint.
    expect(checkpoints).toEqual(["a@11", "b@11", "a@21", "b@21"]);
    expect(mark?.sessions.a).toEqual(count(3_000, 18, at(30).toISOString()));
  });

  it("a shrunk (replaced) transcript or a session new to the mark resets only that session's count", () => {
    const mark = markOf({ s1: count(9_000, 15), s2: count(100, 7) });
    const shrunk = finishTick(planTick(mark, "s1", 100, 1_000, at(1)), 0, 20).next;
    expect(shrunk.sessions).toEqual({ s1: count(100, 0, at(1).toISOString()), s2: count(100, 7) });
    const added = finishTick(planTick(mark, "s3", 200, 1_000, at(1)), 0, 20).next;
    expect(added.sessions).toEqual({ s1: count(9_000, 15), s2: count(100, 7), s3: count(200, 0, at(1).toISOString()) });
  });

  it(`remembers the ${MAX_MARKED_SESSIONS} most recently ticked sessions`, () => {
    const sessions: CheckpointMark["sessions"] = {};
    for (let i = 0; i < MAX_MARKED_SESSIONS; i++) sessions[`s${i}`] = count(10, i, at(i).toISOString());
    const next = finishTick(planTick(markOf(sessions), "new", 10, 1_000, at(100)), 0, 20).next;
    expect(Object.keys(next.sessions)).toHaveLength(MAX_MARKED_SESSIONS);
    expect(next.sessions.s0).toBeUndefined();
    expect(next.sessions.s1).toEqual(sessions.s1);
    expect(next.sessions.new).toEqual(count(10, 0, at(100).toISOString()));
  });

  it("a session id that names an Object.prototype member is just another session", () => {
    const plan = planTick(markOf({}), "constructor", 500, 1_000, now);
    expect(plan.read).toEqual({ from: 500, to: 500 });
    expect(finishTick(plan, 0, 20).next.sessions.constructor).toEqual(count(500, 0));
  });

  it("bounds how much it reads after a long quiet stretch", () => {
    expect(planTick(markOf({ s1: count(0, 0) }), "s1", 50_000_000, 4_000_000, now).read).toEqual({
      from: 46_000_000,
      to: 50_000_000,
    });
  });
});

describe("parseCheckpointMark", () => {
  it("reads the per-session mark", () => {
    const mark = markOf({ s1: count(10, 3) });
    expect(parseCheckpointMark(JSON.parse(JSON.stringify(mark)))).toEqual(mark);
  });

  it("reads a mark from before per-session counts as that one session, so its count carries on", () => {
    const mark = parseCheckpointMark({ sessionId: "s1", offset: 1_000, messages: 15 });
    expect(mark).toEqual(markOf({ s1: count(1_000, 15, new Date(0).toISOString()) }));
    const tick = finishTick(planTick(mark, "s1", 1_500, 1_000_000, now), 5, 20);
    expect(tick.checkpoint).toBe(true);
  });

  it("anything else starts afresh", () => {
    for (const value of [null, 42, "x", {}, { sessions: { s1: { offset: "1" } } }, { sessionId: "s1" }]) {
      expect(parseCheckpointMark(value)).toBeNull();
    }
  });

  it("drops unknown fields, and a damaged session's count sends the file to the older format or afresh", () => {
    const file = { sessions: { s1: { ...count(10, 3), later: true } }, version: 9 };
    expect(parseCheckpointMark(file)).toEqual(markOf({ s1: count(10, 3) }));
    expect(parseCheckpointMark({ sessions: { s1: count(1.5, 3) } })).toBeNull();
    expect(parseCheckpointMark({ sessions: { s1: count(2 ** 53, 3) } })).toBeNull();
    const both = { sessions: { s1: count(-1, "x" as never) }, sessionId: "s2", offset: 5, messages: 1 };
    expect(parseCheckpointMark(both)).toEqual(markOf({ s2: count(5, 1, new Date(0).toISOString()) }));
  });

  it("a __proto__ session in the file is left out, never made the mark's prototype", () => {
    const mark = parseCheckpointMark(JSON.parse(`{"sessions":{"__proto__":${JSON.stringify(count(1, 1))}}}`));
    expect(mark).toEqual(markOf({}));
    expect(Object.getPrototypeOf(mark?.sessions)).toBe(Object.prototype);
  });
});
