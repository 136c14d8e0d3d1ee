import { describe, expect, it } from "vitest";
import { estimateTokens } from "./estimate.ts";

describe("estimateTokens", () => {
  it("counts 4 characters per token, rounding up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abc")).toBe(1);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("x".repeat(4_000))).toBe(1_000);
  });
});
