import { describe, expect, it } from "vitest";
import { sanitizeTerminalText } from "../terminal-text.ts";
import { formatJson, formatRows, writerOf } from "./output.ts";

const ESC = String.fromCharCode(0x1b);

describe("formatJson", () => {
  it("escapes DEL, C1 and the separators too: the same value, bytes the sanitizer leaves alone", () => {
    const value = { text: `a${ESC}[2J b\u007f c\u009b d\u0085 e\u2028 f\u202e`, plain: "naïve 日本" };
    const json = formatJson(value);
    expect(json).toContain("\\u001b[2J");
    expect(json).toContain("\\u007f");
    expect(json).toContain("\\u009b");
    expect(json).toContain("\\u2028");
    expect(json).toContain("naïve 日本");
    expect(JSON.parse(json)).toEqual(value);
    expect(sanitizeTerminalText(json)).toBe(json);
  });
});

describe("writerOf", () => {
  it("sanitizes the text, then paints it: ctx's colour survives, the data's escapes do not", () => {
    const written: string[] = [];
    const out = writerOf((text) => written.push(text));
    out(`title ${ESC}]0;owned${String.fromCharCode(7)}\n`, (safe) => `${ESC}[1m${safe}${ESC}[22m`);
    out(`plain ${ESC}[2J\n`);
    expect(written).toEqual([`${ESC}[1mtitle \\u001b]0;owned\\u0007\n${ESC}[22m`, "plain \\u001b[2J\n"]);
  });
});

describe("formatRows", () => {
  it("keeps every row on one line, whatever its value holds (a team server's text)", () => {
    const text = formatRows([
      ["member", "bob (handle bo\nb)"],
      ["last error", "refused\r\nreachable  yes\tok"],
    ]);
    expect(text).toBe("member      bob (handle bo\\nb)\nlast error  refused\\r\\nreachable  yes\\tok\n");
    expect(text.split("\n")).toHaveLength(3);
  });
});
