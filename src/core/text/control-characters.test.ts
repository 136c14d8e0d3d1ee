import { describe, expect, it } from "vitest";
import { hasControlCharacter, WITHOUT_CONTROL_CHARACTERS } from "./control-characters.ts";

describe("control characters", () => {
  it("finds C0 controls (NUL, tab, newline included) and DEL, nothing else", () => {
    for (const text of ["a\u0000b", "tab\there", "line\nbreak", "\u001f", "del\u007f"]) {
      expect(hasControlCharacter(text)).toBe(true);
      expect(WITHOUT_CONTROL_CHARACTERS.test(text)).toBe(false);
    }
    for (const text of ["", "/home/me/.claude/projects/x.jsonl", "é ü 中文", "\u0085 (C1 is text here)"]) {
      expect(hasControlCharacter(text)).toBe(false);
      expect(WITHOUT_CONTROL_CHARACTERS.test(text)).toBe(true);
    }
  });
});
