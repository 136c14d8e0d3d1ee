import { describe, expect, it } from "vitest";
import { addUsage, contextTokensOf, decideTurn } from "./context.ts";
import { newBridgeSession } from "./session.ts";

const limits = { softLimitTokens: 120_000, hardLimitTokens: 180_000, idleMinutes: 30 };
const now = new Date("2026-01-01T12:00:00Z");
const identity = { key: "dm:1", userId: "1", username: "u", channelId: null, channelName: null };
const running = (contextTokens: number, lastActiveAt = now.toISOString()) => ({
  ...newBridgeSession(identity, now),
  claudeSessionId: "s1",
  contextTokens,
  lastActiveAt,
});

describe("contextTokensOf", () => {
  it("adds input, cache creation and cache read (not the output); ignores junk", () => {
    expect(
      contextTokensOf({
        input_tokens: 10,
        cache_creation_input_tokens: 1_000,
        cache_read_input_tokens: 100_000,
        output_tokens: 50,
      }),
    ).toBe(101_010);
    expect(contextTokensOf({ input_tokens: Number.NaN, output_tokens: -3 })).toBe(0);
  });

  it("accumulates totals", () => {
    const totals = addUsage(
      { inputTokens: 1, outputTokens: 2, cacheCreationTokens: 3, cacheReadTokens: 4 },
      { input_tokens: 10, cache_read_input_tokens: 5 },
    );
    expect(totals).toEqual({ inputTokens: 11, outputTokens: 2, cacheCreationTokens: 3, cacheReadTokens: 9 });
  });
});

describe("decideTurn", () => {
  it("starts a Claude session on the first turn", () => {
    expect(decideTurn(newBridgeSession(identity, now), "hi", limits, now).action).toBe("new-session");
  });

  it("continues under the soft limit, counting the pending text at 4 chars a token", () => {
    expect(decideTurn(running(100_000), "x".repeat(40_000), limits, now)).toEqual({
      action: "continue",
      projectedTokens: 110_000,
    });
  });

  it("summarises past the soft limit, the hard limit, and after the idle time", () => {
    expect(decideTurn(running(119_000), "x".repeat(8_000), limits, now)).toMatchObject({ reason: "soft-limit" });
    expect(decideTurn(running(170_000), "x".repeat(80_000), limits, now)).toMatchObject({ reason: "hard-limit" });
    const idle = running(1_000, new Date(now.getTime() - 31 * 60_000).toISOString());
    expect(decideTurn(idle, "hi", limits, now)).toMatchObject({ action: "summarize", reason: "idle" });
  });

  it("keeps the parts of one message together until the hard limit", () => {
    expect(decideTurn(running(150_000), "x".repeat(40_000), limits, now, true).action).toBe("continue");
    expect(decideTurn(running(175_000), "x".repeat(40_000), limits, now, true)).toMatchObject({
      reason: "hard-limit",
    });
  });
});
