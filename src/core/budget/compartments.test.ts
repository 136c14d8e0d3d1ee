import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import {
  addBudgetItem,
  assembleBudget,
  type BudgetCaps,
  type BudgetFile,
  compartmentUsage,
  EMPTY_BUDGET,
  evictBudgetItems,
  evictionOrder,
  setBudgetPinned,
} from "./compartments.ts";

const caps: BudgetCaps = {
  safety_constraints: 50,
  active_task: 50,
  operator_preferences: 50,
  project_background: 50,
  ambient_knowledge: 50,
};
const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 10, minute));
const words = (tokens: number, tag = "x") => `${tag}${"-".repeat(tokens * 4 - tag.length)}`;

function build(adds: Array<Parameters<typeof addBudgetItem>[1]>): BudgetFile {
  let file = EMPTY_BUDGET;
  adds.forEach((request, index) => {
    file = addBudgetItem(file, request, caps, at(index)).file;
  });
  return file;
}

describe("context budget", () => {
  it("adds items with sequential ids, estimated tokens and usage per compartment", () => {
    const file = build([
      { compartment: "active_task", text: "Finish the retry helper" },
      { compartment: "safety_constraints", text: "Never push to main", priority: 5 },
    ]);
    expect(file.items.map((item) => [item.id, item.tokens, item.priority])).toEqual([
      ["b1", 6, 3],
      ["b2", 5, 5],
    ]);
    const usage = compartmentUsage(file, caps);
    expect(usage.find((u) => u.compartment === "active_task")).toMatchObject({ tokens: 6, items: 1, cap: 50 });
  });

  it("rejects empty text, a bad priority, and an item larger than its compartment's cap", () => {
    expect(
      thrownCtxError(() => addBudgetItem(EMPTY_BUDGET, { compartment: "active_task", text: "  " }, caps, at(0))).code,
    ).toBe("USAGE");
    expect(
      thrownCtxError(() =>
        addBudgetItem(EMPTY_BUDGET, { compartment: "active_task", text: "a", priority: 9 }, caps, at(0)),
      ).code,
    ).toBe("USAGE");
    const big = thrownCtxError(() =>
      addBudgetItem(EMPTY_BUDGET, { compartment: "active_task", text: words(51) }, caps, at(0)),
    );
    expect(big.code).toBe("STORAGE_LIMIT");
    expect(big.hint).toContain("budget.caps.active_task");
  });

  it("over the cap, evicts the compartment's lowest-priority, least recently used unpinned items", () => {
    const file = build([
      { compartment: "project_background", text: words(20, "old-low"), priority: 1 },
      { compartment: "project_background", text: words(20, "pinned"), priority: 1, pinned: true },
      { compartment: "project_background", text: words(5, "high"), priority: 5 },
    ]);
    const result = addBudgetItem(file, { compartment: "project_background", text: words(20, "new") }, caps, at(9));
    expect(result.evicted.map((item) => item.id)).toEqual(["b1"]);
    expect(result.file.items.map((item) => item.id)).toEqual(["b2", "b3", "b4"]);
  });

  it("refuses instead of evicting when asked, when only pinned items are left, and in safety constraints", () => {
    const full = build([{ compartment: "active_task", text: words(45) }]);
    const refused = thrownCtxError(() =>
      addBudgetItem(full, { compartment: "active_task", text: words(10), overCap: "error" }, caps, at(5)),
    );
    expect(refused.message).toContain("~45 of 50");
    const pinned = setBudgetPinned(full, "b1", true).file;
    expect(
      thrownCtxError(() => addBudgetItem(pinned, { compartment: "active_task", text: words(10) }, caps, at(5))).message,
    ).toContain("pinned");
    const safety = build([{ compartment: "safety_constraints", text: words(45) }]);
    expect(
      thrownCtxError(() => addBudgetItem(safety, { compartment: "safety_constraints", text: words(10) }, caps, at(5)))
        .message,
    ).toContain("never evicted");
  });

  it("evicts by tokens ambient knowledge first, then by compartment priority, never pinned or safety items", () => {
    const file = build([
      { compartment: "safety_constraints", text: words(10, "safe") },
      { compartment: "active_task", text: words(10, "task"), priority: 1 },
      { compartment: "project_background", text: words(10, "bg") },
      { compartment: "ambient_knowledge", text: words(10, "amb-high"), priority: 5 },
      { compartment: "ambient_knowledge", text: words(10, "amb-pinned"), pinned: true },
      { compartment: "ambient_knowledge", text: words(10, "amb-low"), priority: 1 },
    ]);
    expect(evictionOrder(file.items).map((item) => item.id)).toEqual(["b6", "b4", "b3", "b2"]);
    expect(evictBudgetItems(file, { tokens: 15 }).evicted.map((item) => item.id)).toEqual(["b6", "b4"]);
    const all = evictBudgetItems(file, { tokens: 10_000 });
    expect(all.file.items.map((item) => item.id)).toEqual(["b1", "b5"]);
  });

  it("evicts one item by id, except a pinned one; an unknown id is NOT_FOUND", () => {
    const file = build([
      { compartment: "safety_constraints", text: "no force pushes" },
      { compartment: "active_task", text: "pinned", pinned: true },
    ]);
    expect(evictBudgetItems(file, { id: "b1" }).file.items.map((item) => item.id)).toEqual(["b2"]);
    expect(thrownCtxError(() => evictBudgetItems(file, { id: "b2" })).hint).toContain("unpin b2");
    expect(thrownCtxError(() => evictBudgetItems(file, { id: "b9" })).code).toBe("NOT_FOUND");
  });

  it("assembles safety constraints and pinned items first and omits ambient knowledge first", () => {
    const file = build([
      { compartment: "ambient_knowledge", text: "The CI runs on two cores." },
      { compartment: "active_task", text: "Wire the retry helper into the client." },
      { compartment: "safety_constraints", text: "Never run migrations against production." },
      { compartment: "project_background", text: "A pinned fact.", pinned: true },
    ]);
    const whole = assembleBudget(file, 1_000);
    expect(whole.included).toEqual(["b3", "b4", "b2", "b1"]);
    expect(whole.text.split("\n")).toEqual([
      "## Context budget (kept by ctx_budget)",
      "### Safety constraints",
      "- Never run migrations against production.",
      "### Active task",
      "- Wire the retry helper into the client.",
      "### Project background",
      "- A pinned fact.",
      "### Ambient knowledge",
      "- The CI runs on two cores.",
    ]);
    const tight = assembleBudget(file, whole.tokens - 5);
    expect(tight.omitted).toEqual(["b1"]);
    expect(tight.tokens).toBeLessThanOrEqual(whole.tokens - 5);
    expect(assembleBudget(file, 3)).toMatchObject({ text: "", included: [], tokens: 0 });
  });
});
