import { describe, expect, it } from "vitest";
import { estimateTokens } from "../estimate.ts";
import { assembleContext, BRIDGE_PRESET, SMART_CONTEXT_PRESET } from "./assemble.ts";
import type { SummaryMessage } from "./messages.ts";

function conversation(count: number, chars = 400): SummaryMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    uuid: `m${i}`,
    role: i % 2 === 0 ? "user" : "assistant",
    kind: i % 2 === 0 ? "prompt" : "reply",
    text: `message ${i} about src/file${i}.ts `.padEnd(chars, "x"),
    exactTokens: null,
    timestamp: null,
  }));
}
const summaryOf = (message: SummaryMessage) => `summary of ${message.uuid} (src/file${message.uuid.slice(1)}.ts)`;

describe("assembleContext", () => {
  it("bridge preset: the last 5 verbatim, messages 6-20 summarised, everything older folded into one summary", () => {
    const messages = conversation(60);
    const assembly = assembleContext({ messages, summaryOf, policy: BRIDGE_PRESET });
    expect(assembly.recent.map((m) => m.uuid)).toEqual(["m55", "m56", "m57", "m58", "m59"]);
    expect(assembly.recent[0]?.text).toBe(messages[55]?.text);
    expect(assembly.summarized.map((m) => m.uuid)).toEqual(Array.from({ length: 15 }, (_, i) => `m${40 + i}`));
    expect(assembly.summarized[0]?.text).toBe("summary of m40 (src/file40.ts)");
    expect(assembly.aggregate.messages).toBe(40);
    expect(assembly.aggregate.text).toContain("summary of m0");
    expect(assembly.assembledTokens).toBeLessThanOrEqual(BRIDGE_PRESET.budgetTokens);
  });

  it("smart preset: the same function with the Smart Context layer sizes", () => {
    // The document's layers: the recent 20 in full, 21-100 summarised, the rest aggregated.
    const assembly = assembleContext({ messages: conversation(150), summaryOf, policy: SMART_CONTEXT_PRESET });
    expect(assembly.recent).toHaveLength(20);
    expect(assembly.summarized).toHaveLength(80);
    expect(assembly.aggregate.messages).toBe(50);
    expect(assembly.text).toMatch(
      /^## Earlier conversation \(50 messages, folded\)[\s\S]*## Summarised \(80 messages\)[\s\S]*## Recent \(20 messages, verbatim\)/,
    );
  });

  it("stays within the budget: big recent messages move to the summarised layer, the newest always stays", () => {
    const messages = conversation(30, 8_000); // 2,000 tokens each
    const policy = { recentMessages: 10, middleMessages: 10, budgetTokens: 6_000, aggregateTokens: 500 };
    const assembly = assembleContext({ messages, summaryOf, policy });
    expect(assembly.recent.length).toBeGreaterThanOrEqual(1);
    expect(assembly.recent.length).toBeLessThan(10);
    expect(assembly.recent.at(-1)?.uuid).toBe("m29");
    expect(assembly.assembledTokens).toBeLessThanOrEqual(policy.budgetTokens);
    expect(assembly.recent.length + assembly.summarized.length + assembly.aggregate.messages).toBe(30);
  });

  it("counts exact tokens where the transcript gives them, the estimate elsewhere, and reports the ratio", () => {
    const messages = conversation(4);
    messages[3] = { ...(messages[3] as SummaryMessage), exactTokens: 777 };
    const assembly = assembleContext({ messages, summaryOf, policy: BRIDGE_PRESET });
    expect(assembly.recent.at(-1)).toMatchObject({ tokens: 777, exact: true });
    expect(assembly.recent[0]).toMatchObject({ tokens: estimateTokens(messages[0]?.text ?? ""), exact: false });
    expect(assembly.originalTokens).toBe(3 * 100 + 777);
    expect(assembly.compressionRatio).toBe(1);
    expect(assembly.aggregate.messages).toBe(0);
  });

  it("an empty conversation assembles to nothing", () => {
    const assembly = assembleContext({ messages: [], summaryOf, policy: SMART_CONTEXT_PRESET });
    expect(assembly).toMatchObject({ originalTokens: 0, assembledTokens: 0, compressionRatio: 0, text: "" });
  });
});
