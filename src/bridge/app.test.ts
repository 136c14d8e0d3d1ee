import { describe, expect, it } from "vitest";
import { type AcceptedMessage, createWebhookApp } from "./app.ts";

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
