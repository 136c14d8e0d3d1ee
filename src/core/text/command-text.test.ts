import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanCommandText } from "./command-text.ts";

const code = (n: number) => String.fromCharCode(n);

describe("cleanCommandText (break 5: one NUL character breaks a conversation for good)", () => {
  it("removes NUL", () => {
    expect(cleanCommandText(`sum${code(0)}mary`)).toBe("summary");
    expect(cleanCommandText(code(0).repeat(3))).toBe("");
  });

  it("removes every other C0 control but keeps newline and tab", () => {
    for (let n = 0; n < 0x20; n++) {
      const kept = n === 0x09 || n === 0x0a;
      expect(cleanCommandText(`a${code(n)}b`)).toBe(kept ? `a${code(n)}b` : "ab");
    }
    expect(cleanCommandText("line 1\r\nline 2\tcol\u001b[2J")).toBe("line 1\nline 2\tcol[2J");
  });

  it("removes DEL and C1", () => {
    for (let n = 0x7f; n <= 0x9f; n++) expect(cleanCommandText(`a${code(n)}b`)).toBe("ab");
  });

  it("leaves non-ASCII text untouched, and returns clean text as it is", () => {
    const text = "Grüße, 你好, ¡olé! — 🎉 \u00a0nbsp \u2028sep";
    expect(cleanCommandText(text)).toBe(text);
  });

  it("is idempotent and leaves no control behind", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const once = cleanCommandText(text);
        expect(cleanCommandText(once)).toBe(once);
        for (const char of once) {
          const n = char.codePointAt(0) as number;
          expect((n < 0x20 && n !== 0x09 && n !== 0x0a) || (n >= 0x7f && n <= 0x9f)).toBe(false);
        }
      }),
    );
  });
});
