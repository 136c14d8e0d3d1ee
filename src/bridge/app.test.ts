import { describe, expect, it } from "vitest";
import type { AcceptedMessage } from "./accepted-message.ts";
import { createWebhookApp } from "./app.ts";

function app(fail: () => boolean = () => false) {
  const accepted: AcceptedMessage[] = [];
  const warnings: string[] = [];
  const hono = createWebhookApp({
    token: "right",
    maxInputBytes: 100,
    version: "test",
    accept: async (message) => {
      if (fail()) throw new Error("ENOSPC: no space left on device, write");
      accepted.push(message);
    },
    redact: (text) => text.replaceAll("sk-live-secret", "[REDACTED]"),
    now: () => new Date("2026-01-01T00:00:00Z"),
    health: async () => ({ queued: 0 }),
    warn: (line) => warnings.push(line),
  });
  const post = (body: string, type = "application/x-www-form-urlencoded") =>
    hono.request("/webhook", { method: "POST", headers: { "content-type": type }, body });
  return { hono, post, accepted, warnings };
}

const form = (fields: Record<string, string>) => new URLSearchParams({ token: "right", ...fields }).toString();

describe("the webhook app", () => {
  it("journals the redacted text and keeps the text as sent for Claude", async () => {
    const { post, accepted } = await app();
    const response = await post(
      form({ user_id: "7", channel_id: "3", text: "@claude key sk-live-secret", trigger_word: "@claude" }),
    );
    expect(response.status).toBe(200);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.live).toMatchObject({ key: "3:7", text: "key sk-live-secret", bytes: 18 });
    expect(accepted[0]?.journaled.text).toBe("key [REDACTED]");
  });

  it("runs a post Synology sends twice only once", async () => {
    const { post, accepted, warnings } = await app();
    for (let i = 0; i < 2; i += 1)
      expect((await post(form({ user_id: "7", post_id: "55", text: "hi" }))).status).toBe(200);
    expect(accepted).toHaveLength(1);
    expect(warnings[0]).toContain("post 55 arrived again");
  });

  it("keeps a refused message in its channel conversation, and refuses one over the byte limit by size", async () => {
    const { post, accepted } = await app();
    await post(`token=right&user_id=7&channel_id=3&text=%FF`);
    await post(form({ user_id: "7", text: "é".repeat(51) }));
    expect(accepted.map((m) => [m.journaled.key, m.journaled.refused, m.journaled.bytes, m.journaled.text])).toEqual([
      ["3:7", "invalid-utf8", 0, ""],
      ["dm:7", "too-large", 102, ""],
    ]);
  });

  it("judges a token in the URL's query before reading: a wrong one is 401, a right one is read as usual", async () => {
    const { hono, accepted } = app();
    const postTo = (path: string) =>
      hono.request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ user_id: "7", text: "hi" }),
      });
    const wrong = await postTo("/webhook?token=wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("connection")).toBe("close");
    expect(accepted).toHaveLength(0);
    expect((await postTo("/webhook?token=right")).status).toBe(200);
    expect(accepted).toHaveLength(1);
  });

  it("answers health and unknown routes", async () => {
    const { hono } = await app();
    expect(await (await hono.request("/healthz")).json()).toEqual({ ok: true, version: "test", queued: 0 });
    expect((await hono.request("/other")).status).toBe(404);
  });

  it("break 1: a message the journal could not keep gets 503 (logged), and Synology's retry of it is accepted", async () => {
    let full = true;
    const { post, accepted, warnings } = await app(() => full);
    const message = form({ user_id: "3", username: "ann", post_id: "77", text: "hello" });
    const refused = await post(message);
    expect(refused.status).toBe(503);
    expect(accepted).toHaveLength(0);
    expect(warnings.join("\n")).toMatch(/answered 503.*ENOSPC/);
    full = false;
    const retried = await post(message);
    expect(retried.status).toBe(200);
    expect(accepted).toHaveLength(1);
    expect(warnings.join("\n")).not.toMatch(/already accepted/);
    // Kept now: a third copy is the duplicate.
    expect((await post(message)).status).toBe(200);
    expect(accepted).toHaveLength(1);
  });

  it("break 1: two copies of one post in flight together are kept once", async () => {
    const { post, accepted } = await app();
    const message = form({ user_id: "3", username: "ann", post_id: "78", text: "hello" });
    const answers = await Promise.all([post(message), post(message)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(accepted).toHaveLength(1);
  });

  it("break 1: a refused (empty) message the journal could not keep gets 503 too", async () => {
    const { post, accepted } = await app(() => true);
    expect((await post(form({ user_id: "3", text: "" }))).status).toBe(503);
    expect(accepted).toHaveLength(0);
  });
});

/** A body that arrives in 64 KiB chunks as it is read; `pulled` counts what the app made the sender send. */
function streamed(head: string, total: number, chunkBytes = 64 * 1024) {
  const chunk = new Uint8Array(chunkBytes).fill(0x61);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        controller.enqueue(new TextEncoder().encode(head));
        pulled += head.length;
      },
      pull: (controller) => {
        if (pulled >= total) return controller.close();
        controller.enqueue(chunk);
        pulled += chunk.length;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

const postStream = (hono: ReturnType<typeof app>["hono"], stream: ReadableStream<Uint8Array>, type = FORM) =>
  hono.request("/webhook", {
    method: "POST",
    headers: { "content-type": type },
    body: stream,
    duplex: "half",
  } as RequestInit);

const FORM = "application/x-www-form-urlencoded";
// maxInputBytes 100 in these tests: the HTTP cap is 100 * 3 + 64 KiB.
const CAP = 100 * 3 + 64 * 1024;

describe("the webhook app: bodies over the cap and floods (issue #22, breaks 4 and 6)", () => {
  it("break 4: reads a body over the cap no further than the cap, answers 413 and tells the person", async () => {
    const { hono, accepted, warnings } = app();
    const body = streamed("token=right&channel_id=3&user_id=7&username=ann&post_id=41&text=", 50 * 1024 * 1024);
    const response = await postStream(hono, body.stream);
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(body.pulled()).toBeLessThan(CAP + 2 * 64 * 1024);
    expect(accepted.map((message) => message.journaled)).toEqual([
      expect.objectContaining({ key: "3:7", username: "ann", postId: "41", refused: "too-large", text: "", bytes: 0 }),
    ]);
    expect(warnings.join("\n")).toContain("over 65836 bytes from user 7");
    // Synology sending it again is not a second notice.
    expect(
      (await postStream(hono, streamed("token=right&channel_id=3&user_id=7&post_id=41&text=", CAP * 2).stream)).status,
    ).toBe(413);
    expect(accepted).toHaveLength(1);
  });

  it("break 4: an over-cap body without a readable token or user id gets 401 or 413 and tells nobody", async () => {
    const { hono, accepted } = app();
    expect((await postStream(hono, streamed("user_id=7&text=", CAP * 2).stream)).status).toBe(401);
    expect((await postStream(hono, streamed("token=right&text=", CAP * 2).stream)).status).toBe(413);
    expect(accepted).toHaveLength(0);
  });

  it("break 4: a message the journal cannot keep gets 503 even when over the cap (the chat sends it again)", async () => {
    const { hono, accepted } = app(() => true);
    expect((await postStream(hono, streamed("token=right&user_id=7&text=", CAP * 2).stream)).status).toBe(503);
    expect(accepted).toHaveLength(0);
  });

  it("break 4: a body of the wrong content type is answered in the chat when its token and user id show", async () => {
    const { post, accepted } = app();
    expect((await post(form({ user_id: "7", text: "hi" }), "text/plain")).status).toBe(415);
    const json = JSON.stringify({ token: "right", user_id: "8", channel_id: "3", text: "hi" });
    expect((await post(json, "application/json")).status).toBe(415);
    expect((await post(JSON.stringify({ token: "wrong", user_id: "9" }), "application/json")).status).toBe(415);
    expect((await post("just text", "text/plain")).status).toBe(415);
    expect(accepted.map((message) => [message.journaled.key, message.journaled.refused])).toEqual([
      ["dm:7", "wrong-content-type"],
      ["3:8", "wrong-content-type"],
    ]);
  });

  it("break 6: a wrong token in the first field stops the reading at once (401)", async () => {
    const { hono, accepted } = app();
    // Under the cap, so only the early check can stop it: 60 KiB in 1 KiB chunks.
    const body = streamed("token=wrong&user_id=7&text=", 60 * 1024, 1024);
    expect((await postStream(hono, body.stream)).status).toBe(401);
    expect(body.pulled()).toBeLessThan(4 * 1024);
    expect(accepted).toHaveLength(0);
  });

  it("break 6: bodies in flight are bounded; one past the bound gets 503 with Retry-After, unread", async () => {
    const accepted: AcceptedMessage[] = [];
    const warnings: string[] = [];
    const hono = createWebhookApp({
      token: "right",
      maxInputBytes: 100,
      version: "test",
      accept: async (message) => void accepted.push(message),
      redact: (text) => text,
      now: () => new Date("2026-01-01T00:00:00Z"),
      health: async () => ({}),
      warn: (line) => warnings.push(line),
      maxBodiesInFlight: 2,
    });
    // Two senders that stall mid-body hold both places.
    const stalled = [0, 1].map(() => {
      let finish: () => void = () => {};
      const stream = new ReadableStream<Uint8Array>({
        start: (controller) => {
          controller.enqueue(new TextEncoder().encode("token=right&user_id=7&text=hel"));
          finish = () => {
            controller.enqueue(new TextEncoder().encode("lo"));
            controller.close();
          };
        },
      });
      return { answer: postStream(hono, stream), finish: () => finish() };
    });
    await new Promise((resolve) => setImmediate(resolve));
    const busy = await hono.request("/webhook", {
      method: "POST",
      headers: { "content-type": FORM },
      body: form({ user_id: "8", text: "hi" }),
    });
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(warnings.join("\n")).toContain("2 webhook bodies in flight");
    for (const sender of stalled) sender.finish();
    expect((await Promise.all(stalled.map((sender) => sender.answer))).map((answer) => answer.status)).toEqual([
      200, 200,
    ]);
    const after = await hono.request("/webhook", {
      method: "POST",
      headers: { "content-type": FORM },
      body: form({ user_id: "8", text: "hi" }),
    });
    expect(after.status).toBe(200);
    expect(warnings.join("\n")).toContain("no longer busy; 1 request(s) were answered 503 unread");
    expect(accepted.map((message) => message.live.text)).toEqual(["hello", "hello", "hi"]);
  });
});
