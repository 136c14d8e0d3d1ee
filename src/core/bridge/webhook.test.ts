import { describe, expect, it } from "vitest";
import { chatCommandOf, chatMessageOf, parseFormBody, stripTriggerWord, WebhookFieldsSchema } from "./webhook.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseFormBody", () => {
  it("decodes percent-encoding and + as UTF-8 text", () => {
    const parsed = parseFormBody(bytes("token=abc&text=h%C3%A9llo+w%C3%B6rld&user_id=4&text=second"));
    expect(parsed).toEqual({
      ok: true,
      fields: new Map([
        ["token", "abc"],
        ["text", "héllo wörld"],
        ["user_id", "4"],
      ]),
    });
  });

  it("refuses percent-encoded bytes that are not UTF-8, naming the field", () => {
    expect(parseFormBody(bytes("token=abc&text=%FF%FE"))).toEqual({
      ok: false,
      problem: 'field "text" is not valid percent-encoded UTF-8',
    });
  });

  it("refuses a raw body that is not UTF-8, an empty body, and a broken escape", () => {
    expect(parseFormBody(Uint8Array.of(0x74, 0x3d, 0xff))).toMatchObject({ ok: false });
    expect(parseFormBody(bytes(""))).toMatchObject({ ok: false, problem: "the body is empty" });
    expect(parseFormBody(bytes("text=%G1"))).toMatchObject({ ok: false });
  });
});

describe("chatMessageOf", () => {
  it("keys a channel message by channel and user, strips the trigger word", () => {
    const fields = WebhookFieldsSchema.parse({
      token: "t",
      user_id: "7",
      username: "ann",
      text: "@claude: explain this",
      channel_id: "12",
      channel_name: "dev",
      post_id: "99",
      trigger_word: "@claude",
    });
    expect(chatMessageOf(fields)).toEqual({
      key: "12:7",
      userId: "7",
      username: "ann",
      channelId: "12",
      channelName: "dev",
      postId: "99",
      text: "explain this",
    });
  });

  it("keys a direct (chatbot) message by user alone", () => {
    const fields = WebhookFieldsSchema.parse({ token: "t", user_id: "7", text: "hi" });
    expect(chatMessageOf(fields)).toMatchObject({ key: "dm:7", username: "7", channelId: null, postId: null });
  });

  it("leaves text without the trigger word alone", () => {
    expect(stripTriggerWord("  hello  ", "@claude")).toBe("hello");
  });
});

describe("chatCommandOf", () => {
  it("knows /status, /new and /forget alone on the message", () => {
    expect(chatCommandOf(" /STATUS ")).toBe("status");
    expect(chatCommandOf("/new")).toBe("new");
    expect(chatCommandOf("/forget")).toBe("forget");
    expect(chatCommandOf("/status please")).toBeNull();
    expect(chatCommandOf("what is /status")).toBeNull();
  });
});
