import { describe, expect, it } from "vitest";
import { readBodyCapped } from "./body-reader.ts";
import { createReadSlots } from "./read-slots.ts";

const never = () => false;

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start: (controller) => {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

describe("readBodyCapped", () => {
  it("reads a whole body, whatever size the sender declared", async () => {
    const text = `token=a&text=${"x".repeat(200_000)}`;
    for (const declared of [null, 0, 10, text.length, 10_000_000]) {
      const read = await readBodyCapped(streamOf(text.slice(0, 7), text.slice(7)), 1_000_000, declared, never);
      expect(read.kind).toBe("whole");
      expect(read.kind === "whole" && Buffer.from(read.body).toString()).toBe(text);
    }
    expect(await readBodyCapped(null, 10, null, never)).toEqual({ kind: "whole", body: new Uint8Array(0) });
  });

  it("keeps the first `cap` bytes of a larger body, and a body of exactly `cap` bytes whole", async () => {
    const over = await readBodyCapped(streamOf("token=a&", "text=", "y".repeat(100)), 50, null, never);
    expect(over.kind === "over-cap" && Buffer.from(over.prefix).toString()).toBe(`token=a&text=${"y".repeat(37)}`);
    expect((await readBodyCapped(streamOf("a".repeat(30), "b".repeat(20)), 50, 50, never)).kind).toBe("whole");
  });

  it("stops at a wrong token, and reads on past a right one", async () => {
    const isWrong = (token: string) => token !== "right";
    expect(await readBodyCapped(streamOf("token=wr", "ong&text=hi"), 100, null, isWrong)).toEqual({
      kind: "wrong-token",
    });
    expect((await readBodyCapped(streamOf("token=right&text=hi"), 100, null, isWrong)).kind).toBe("whole");
  });

  it("holds a body in its first bytes until the gate lets it on, and stops when the gate says so", async () => {
    const gate = (verify: boolean, stranger: boolean) => {
      const controller = new AbortController();
      return {
        controller,
        gate: { signal: controller.signal, firstBytes: 16, verify: () => verify, holdAsStranger: () => stranger },
      };
    };
    const right = (token: string) => token !== "right";
    expect(
      (await readBodyCapped(streamOf("token=right&text=hi"), 100, 1_000, right, gate(true, false).gate)).kind,
    ).toBe("whole");
    expect(
      (await readBodyCapped(streamOf("token=right&text=hi"), 100, null, right, gate(false, false).gate)).kind,
    ).toBe("busy");
    // No token in the first 16 bytes: the strangers' share decides.
    const late = "user_id=7&text=hello&token=right";
    expect((await readBodyCapped(streamOf(late), 100, null, right, gate(false, true).gate)).kind).toBe("whole");
    expect((await readBodyCapped(streamOf(late), 100, null, right, gate(false, false).gate)).kind).toBe("busy");
    // A body that never ends is stopped by the gate's signal.
    const stalled = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode("text=")),
    });
    const stopping = gate(false, false);
    const read = readBodyCapped(stalled, 100, null, right, stopping.gate);
    stopping.controller.abort();
    expect(await read).toEqual({ kind: "dropped" });
  });

  it("a stranger whose token shows after its first bytes is verified: its deadline ends, its slot is a verified one", async () => {
    const drops: string[] = [];
    const slots = createReadSlots({
      slots: 4,
      strangerSlots: 1,
      maxStrangers: 8,
      tokenMs: 40,
      onDrop: (why) => drops.push(why),
    });
    const ticket = slots.open(false);
    if (ticket === null) throw new Error("no ticket");
    let finish: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        // Past the 16 first bytes without a token (a stranger's slot), then the token, then the rest well past 40 ms.
        controller.enqueue(new TextEncoder().encode("user_id=7&text=hello"));
        controller.enqueue(new TextEncoder().encode("&token=right&"));
        finish = () => {
          controller.enqueue(new TextEncoder().encode("post_id=1"));
          controller.close();
        };
      },
    });
    const read = readBodyCapped(body, 1_000, null, (token) => token !== "right", { ...ticket, firstBytes: 16 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    finish();
    const done = await read;
    expect(done.kind === "whole" && Buffer.from(done.body).toString()).toBe(
      "user_id=7&text=hello&token=right&post_id=1",
    );
    expect(drops).toEqual([]);
    expect(ticket.signal.aborted).toBe(false);
    // Its slot is a verified one: the strangers' one share is free for another body without an early token.
    const other = slots.open(false);
    expect(other?.holdAsStranger()).toBe(true);
    ticket.close();
    other?.close();
    expect(slots.held()).toBe(0);
  });
});
