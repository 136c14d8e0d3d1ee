import { describe, expect, it } from "vitest";
import { isSessionId } from "./session-id.ts";

describe("isSessionId", () => {
  it("takes Claude Code's UUIDs, either case", () => {
    expect(isSessionId("4d5611e5-0000-4000-8000-000000000001")).toBe(true);
    expect(isSessionId("D6E0BADA-1959-4EEC-A9D2-0BFADE768D8F")).toBe(true);
  });

  it("refuses anything else a transcript's file name can hold", () => {
    for (const id of [
      "a;touch PWN2;#",
      "$(touch PWN3)",
      "4d5611e5-0000-4000-8000-00000000000",
      "",
      "x\n4d5611e5-0000-4000-8000-000000000001",
    ])
      expect(isSessionId(id)).toBe(false);
  });
});
