import { describe, expect, it } from "vitest";
import { readBodyCapped } from "./body-reader.ts";

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
});
