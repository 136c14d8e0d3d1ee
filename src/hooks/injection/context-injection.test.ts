import { describe, expect, it } from "vitest";
import { emptyContextState } from "../../../tests/helpers/context-state.ts";
import { addBudgetItem, EMPTY_BUDGET } from "../../core/budget/compartments.ts";
import { newInjection } from "../../core/context/injection.ts";
import { compactInjectionText } from "./context-injection.ts";

const state = {
  ...emptyContextState("s1"),
  decisions: [
    {
      text: "Use exponential backoff",
      by: "assistant" as const,
      source: "reply" as const,
      uuid: null,
      timestamp: null,
    },
  ],
};
const injection = newInjection("s1", "snap-1", new Date("2026-11-22T10:00:00Z"));
const caps = {
  safety_constraints: 500,
  active_task: 500,
  operator_preferences: 500,
  project_background: 500,
  ambient_knowledge: 500,
};
const budget = addBudgetItem(
  EMPTY_BUDGET,
  { compartment: "active_task", text: "Ship the retry helper" },
  caps,
  new Date(),
).file;

describe("compact injection text", () => {
  it("keeps every rule whole when the rules, budget and state do not all fit, and the state goes first", () => {
    const rulesText = [
      "## Rules",
      ...Array.from({ length: 20 }, (_, i) => `- rule ${i} ${"x".repeat(60)} (ENFORCED)`),
    ].join("\n");
    const text = compactInjectionText(state, injection, 2_000, { rulesText, budget, budgetMaxTokens: 1_000 });
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(text.startsWith(rulesText)).toBe(true);
    expect(text.endsWith("[ctx-restore:snap-1]")).toBe(true);
    expect(text).toContain("- Ship the retry helper");
  });

  it("cuts the rules at a line, saying so, only when they alone exceed the limit", () => {
    const rulesText = ["## Rules", ...Array.from({ length: 50 }, (_, i) => `- rule ${i} ${"y".repeat(60)}`)].join("\n");
    const text = compactInjectionText(state, injection, 1_000, { rulesText, budget, budgetMaxTokens: 1_000 });
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text).toContain("more rules: `ctx rules list`");
    const lines = text.split("\n").slice(1, -2);
    expect(lines.every((line) => /^- rule \d+ y{60}$/.test(line))).toBe(true); // whole lines only
    expect(text).not.toContain("Ship the retry helper");
  });

  it("is the state alone without extras, as before", () => {
    const text = compactInjectionText(state, injection, 9_500);
    expect(text.startsWith("ctx: saved working context of session s1")).toBe(true);
    expect(text).toContain("Use exponential backoff");
  });
});
