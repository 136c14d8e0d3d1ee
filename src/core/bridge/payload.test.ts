import { describe, expect, it } from "vitest";
import { incomingWebhookBody, interpretPostAnswer, replyMessages, retryDelayMs } from "./payload.ts";

describe("incomingWebhookBody", () => {
  it("sends payload={text} for a webhook and adds user_ids for a chatbot", () => {
    const webhook = new URLSearchParams(incomingWebhookBody("hi & bye", "webhook", "5"));
    expect(JSON.parse(webhook.get("payload") ?? "")).toEqual({ text: "hi & bye" });
    const bot = new URLSearchParams(incomingWebhookBody("hi", "chatbot", "5"));
    expect(JSON.parse(bot.get("payload") ?? "")).toEqual({ text: "hi", user_ids: [5] });
  });
});

describe("replyMessages", () => {
  it("keeps a short reply whole and cuts a long one into [i/N] messages within the limit", () => {
    expect(replyMessages("  short  ", 3_500)).toEqual(["short"]);
    const long = `${"word ".repeat(1_000)}\n\n\`\`\`ts\n${"const x = 1;\n".repeat(400)}\`\`\`\n`;
    const messages = replyMessages(long, 3_500);
    expect(messages.length).toBeGreaterThan(1);
    messages.forEach((text, index) => {
      expect(text.startsWith(`[${index + 1}/${messages.length}] `)).toBe(true);
      expect(text.length).toBeLessThanOrEqual(3_500);
      expect((text.match(/^```/gm) ?? []).length % 2).toBe(0);
    });
  });

  it("says so when Claude answered nothing", () => {
    expect(replyMessages(" ", 3_500)).toEqual(["(Claude answered with no text.)"]);
  });
});

describe("interpretPostAnswer", () => {
  it("reads success, Synology's rate limit, HTTP 429 with Retry-After, and failures", () => {
    expect(interpretPostAnswer(200, '{"success":true}', null)).toEqual({ kind: "ok" });
    expect(interpretPostAnswer(200, "", null)).toEqual({ kind: "ok" });
    expect(
      interpretPostAnswer(200, '{"success":false,"error":{"code":411,"errors":"create post too frequently"}}', null),
    ).toEqual({ kind: "rate-limited", retryAfterMs: null, detail: "Synology error 411: create post too frequently" });
    expect(interpretPostAnswer(429, "", "2")).toMatchObject({ kind: "rate-limited", retryAfterMs: 2_000 });
    expect(interpretPostAnswer(503, "", null)).toMatchObject({ kind: "failed", retryable: true });
    expect(interpretPostAnswer(404, "", null)).toMatchObject({ kind: "failed", retryable: false });
    expect(interpretPostAnswer(200, '{"success":false,"error":{"code":404}}', null)).toMatchObject({
      kind: "failed",
      retryable: false,
    });
  });

  it("backs off exponentially, never sooner than asked", () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(attempt, 100, null))).toEqual([100, 200, 400]);
    expect(retryDelayMs(1, 100, 5_000)).toBe(5_000);
  });
});
