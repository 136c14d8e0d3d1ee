import { describe, expect, it } from "vitest";
import { tooLargeNotice } from "./messages.ts";
import {
  chatCommandOf,
  chatMessageOf,
  createTokenScanner,
  parseFormBody,
  readableFieldsOf,
  stripTriggerWord,
  WebhookFieldsSchema,
} from "./webhook.ts";

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

describe("reading a body that is cut or still arriving (issue #22, breaks 4 and 6)", () => {
  it("readableFieldsOf: a body cut at the cap shows its whole fields, the cut one dropped", () => {
    const cut = bytes("token=abc&channel_id=3&user_id=7&post_id=9&text=aaaaaaaaa");
    expect(readableFieldsOf(cut, true)).toEqual(
      new Map([
        ["token", "abc"],
        ["channel_id", "3"],
        ["user_id", "7"],
        ["post_id", "9"],
      ]),
    );
    // Not UTF-8 (the text): the token and user id still show; the first of two wins.
    expect(readableFieldsOf(Uint8Array.of(...bytes("token=abc&token=x&user_id=7&text="), 0xff)).get("token")).toBe(
      "abc",
    );
  });

  it("createTokenScanner: the token once its pair is whole, however the chunks fall", () => {
    const scanner = createTokenScanner();
    expect(scanner.push(bytes("tok"))).toBeUndefined();
    expect(scanner.push(bytes("en=a%62"))).toBeUndefined();
    expect(scanner.push(bytes("c&user_id=7&text=hello"))).toBe("abc");
    // Not the first field, its name percent-encoded: still found.
    const later = createTokenScanner();
    expect(later.push(bytes("user_id=7&t%6Fken=xyz&text=hi"))).toBe("xyz");
    // A body without a token, or whose token pair never ends, shows none.
    expect(createTokenScanner().push(bytes("user_id=7&text=hello&"))).toBeUndefined();
    expect(createTokenScanner().push(bytes("token=abc"))).toBeUndefined();
  });

  it("createTokenScanner: a token pair over 4 KiB is left to the whole body; a long pair of another name is passed", () => {
    const scanner = createTokenScanner();
    expect(scanner.push(bytes(`token=${"a".repeat(5000)}`))).toBeUndefined();
    // The first token wins, as in parseFormBody: a second one is not taken for it.
    expect(scanner.push(bytes("&token=short&"))).toBeUndefined();
    const afterText = createTokenScanner();
    expect(afterText.push(bytes(`text=${"a".repeat(5000)}`))).toBeUndefined();
    expect(afterText.push(bytes(`${"a".repeat(5000)}&token=short&`))).toBe("short");
  });

  it("tooLargeNotice names the size when it was read, and only the limit when it was not", () => {
    expect(tooLargeNotice(2_000_000, 1_048_576)).toContain("Your message is 1.91 MiB (2,000,000 bytes), over");
    expect(tooLargeNotice(0, 1_048_576)).toMatch(/^Your message is over this bridge's limit of 1\.00 MiB/);
  });
});
