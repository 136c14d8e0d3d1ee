import { describe, expect, it } from "vitest";
import { randomHex } from "./random-hex.ts";

describe("randomHex", () => {
  it("gives two hex digits a byte", () => {
    for (const bytes of [0, 1, 3, 6, 8]) expect(randomHex(bytes)).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
  });

  it("does not repeat itself across many draws", () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => randomHex(6)));
    expect(seen.size).toBe(10_000);
  });
});
