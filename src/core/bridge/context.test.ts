import { describe, expect, it } from "vitest";
import { addUsage, contextTokensOf, decideTurn, PART_REPLY_TOKENS, pendingTokens } from "./context.ts";
import { planPromptParts } from "./messages.ts";
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
    expect(decideTurn(newBridgeSession(identity, now), ["hi"], limits, now).action).toBe("new-session");
  });

  it("continues under the soft limit, counting the pending text at 4 chars a token", () => {
    expect(decideTurn(running(100_000), ["x".repeat(40_000)], limits, now)).toEqual({
      action: "continue",
      projectedTokens: 110_000,
    });
  });

  it("summarises past the soft limit, the hard limit, and after the idle time", () => {
    expect(decideTurn(running(119_000), ["x".repeat(8_000)], limits, now)).toMatchObject({ reason: "soft-limit" });
    expect(decideTurn(running(170_000), ["x".repeat(80_000)], limits, now)).toMatchObject({ reason: "hard-limit" });
    const idle = running(1_000, new Date(now.getTime() - 31 * 60_000).toISOString());
    expect(decideTurn(idle, ["hi"], limits, now)).toMatchObject({ action: "summarize", reason: "idle" });
  });

  it("keeps the parts of one message together until the hard limit", () => {
    expect(decideTurn(running(150_000), ["x".repeat(40_000)], limits, now, true).action).toBe("continue");
    expect(decideTurn(running(175_000), ["x".repeat(40_000)], limits, now, true)).toMatchObject({
      reason: "hard-limit",
    });
  });

  it("judges a long message whole before part 1: its parts and the replies between them (issue #22, break 2)", () => {
    // The break's numbers: a session at 99,755 tokens, a 40,010-character paste in 3 parts.
    const prompts = planPromptParts("0123456789".repeat(4_001), 15_000).map((part) => part.prompt);
    expect(prompts).toHaveLength(3);
    const text = prompts.reduce((sum, prompt) => sum + Math.ceil(prompt.length / 4), 0);
    expect(pendingTokens(prompts)).toBe(text + 2 * PART_REPLY_TOKENS);
    expect(decideTurn(running(99_755), prompts, limits, now)).toEqual({
      action: "continue",
      projectedTokens: 99_755 + text + 2_000,
    });
    // Soft = hard = 110,000: the parts' text alone would fit (99,755 + 10,066), with the replies not.
    const tight = { softLimitTokens: 110_000, hardLimitTokens: 110_000, idleMinutes: 30 };
    expect(99_755 + text).toBeLessThanOrEqual(110_000);
    expect(decideTurn(running(99_755), prompts, tight, now)).toMatchObject({ reason: "hard-limit" });
    // Before part 2, after part 1 took the context to 179,298: parts 2-3 and one reply do not fit.
    expect(decideTurn(running(179_298), prompts.slice(1), limits, now, true)).toMatchObject({ reason: "hard-limit" });
  });
});
