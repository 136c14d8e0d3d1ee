// The snapshot transcript's redaction in a worker thread (redact-thread.ts): byte for byte what the same redaction
// gives in this thread, secrets and allowlist included, across block boundaries; small inputs and a closed thread
// stay in this thread.
import { describe, expect, it, vi } from "vitest";
import { redactTranscriptBytes, startRedactionThread } from "./redact-thread.ts";
import { TRANSFORM_BLOCK_BYTES } from "./transform-blocks.ts";

// Fake secrets assembled from parts so the repository holds no literal a secret scanner would flag.
const GITHUB = ["gh", "p_", "Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A"].join("");
const STRIPE = ["sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dcXk2Bf"].join("");

/** JSONL of about `bytes` bytes, a secret every 500 lines, both sides of every 4 MiB block boundary. */
function transcript(bytes: number): Uint8Array {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text =
      i % 500 === 0 ? `export GH_TOKEN=${GITHUB} and ${STRIPE} é ✓` : `line ${i}: nothing secret here, ünïcödé`;
    const line = `${JSON.stringify({ type: "user", uuid: `u${i}`, message: { role: "user", content: text } })}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return new Uint8Array(Buffer.from(lines.join("")));
}

describe("startRedactionThread", () => {
  it("gives exactly the in-thread redaction, from the worker, across block boundaries", async () => {
    const raw = transcript(TRANSFORM_BLOCK_BYTES + 300_000);
    const expected = redactTranscriptBytes(raw, []);
    const text = Buffer.from(expected).toString("utf8");
    expect(text).toContain("[REDACTED:github-token]");
    expect(text).not.toContain(GITHUB);
    const thread = startRedactionThread([], { minThreadedBytes: 0 });
    const redacted = await thread.redact(raw);
    expect(thread.threadedBlocks).toBe(2);
    expect(Buffer.compare(Buffer.from(redacted), Buffer.from(expected))).toBe(0);
    // The raw bytes are still whole: only copies of blocks went to the worker.
    expect(Buffer.compare(Buffer.from(redactTranscriptBytes(raw, [])), Buffer.from(expected))).toBe(0);
  });

  it("shares the blocks with this thread once it helps, and gives the same bytes", async () => {
    const raw = Buffer.from(transcript(15 * TRANSFORM_BLOCK_BYTES + 100_000));
    const expected = redactTranscriptBytes(raw, []);
    const thread = startRedactionThread([], { minThreadedBytes: 0 });
    const pending = thread.redact(raw);
    // This thread helps once the worker has a block: on a loaded machine a worker slow to start would otherwise find
    // every block taken (this thread redacts them all in about the time a cold worker takes to start).
    await vi.waitFor(() => expect(thread.threadedBlocks).toBeGreaterThanOrEqual(1), { timeout: 30_000, interval: 1 });
    thread.help();
    const redacted = await pending;
    // Each block went to one thread: the worker claims from the front while this thread claims from the end.
    expect(thread.threadedBlocks).toBeGreaterThanOrEqual(1);
    expect(thread.threadedBlocks).toBeLessThan(16);
    expect(Buffer.compare(Buffer.from(redacted), Buffer.from(expected))).toBe(0);
    // Help asked before the bytes arrive: all of it here.
    const early = startRedactionThread([], { minThreadedBytes: 0 });
    early.help();
    expect(Buffer.compare(Buffer.from(await early.redact(raw)), Buffer.from(expected))).toBe(0);
    expect(early.threadedBlocks).toBe(0);
  });

  it("keeps the allowlist, and redacts a view into a larger buffer as the view alone", async () => {
    const whole = transcript(200_000);
    const view = whole.subarray(1000 + whole.subarray(1000).indexOf(10) + 1);
    const thread = startRedactionThread([STRIPE], { minThreadedBytes: 0 });
    const redacted = Buffer.from(await thread.redact(view)).toString("utf8");
    expect(thread.threadedBlocks).toBe(1);
    expect(redacted).toBe(Buffer.from(redactTranscriptBytes(view, [STRIPE])).toString("utf8"));
    expect(redacted).toContain(STRIPE);
    expect(redacted).not.toContain(GITHUB);
  });

  it("redacts here below the size threshold, when told not to thread, and once closed", async () => {
    const raw = transcript(50_000);
    const expected = Buffer.from(redactTranscriptBytes(raw, []));
    const closed = startRedactionThread([], { minThreadedBytes: 0 });
    closed.close();
    for (const thread of [
      startRedactionThread([]),
      startRedactionThread([], { thread: false, minThreadedBytes: 0 }),
      closed,
    ]) {
      const redacted = await thread.redact(raw);
      expect(thread.threadedBlocks).toBe(0);
      expect(Buffer.compare(Buffer.from(redacted), expected)).toBe(0);
    }
  });
});
