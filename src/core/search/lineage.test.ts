import { describe, expect, it } from "vitest";
import { type LineageRow, lineageOf, NEUTRAL_CHAIN_QUALITY, parentsInFamily } from "./lineage.ts";

const row = (id: string, overrides: Partial<LineageRow> = {}): LineageRow => ({
  id,
  rootUuid: "root",
  originSession: null,
  copiedRoot: false,
  messageCount: 10,
  createdAt: 1_000,
  ...overrides,
});

describe("lineage rules", () => {
  it("a copy naming its origin (requestSessionId) is that session's fork", () => {
    const family = [row("a"), row("b", { originSession: "a", messageCount: 40 })];
    expect(parentsInFamily(family)).toEqual(
      new Map([
        ["a", null],
        ["b", "a"],
      ]),
    );
    expect(lineageOf("a", family)).toEqual({ parents: [], forks: ["b"], chainQuality: 1 });
    expect(lineageOf("b", family)).toEqual({ parents: ["a"], forks: [], chainQuality: NEUTRAL_CHAIN_QUALITY });
  });

  it("a copy without assistant lines is known by its first prompt's promptId recurring", () => {
    const family = [row("a", { messageCount: 30 }), row("c", { copiedRoot: true, messageCount: 2 })];
    expect(lineageOf("c", family).parents).toEqual(["a"]);
    // 2 messages, none of its own beyond the copy: not a success.
    expect(lineageOf("a", family)).toEqual({ parents: [], forks: ["c"], chainQuality: 0 });
  });

  it("chain quality is the share of forks that went on past 20 messages of their own", () => {
    const family = [
      row("a", { messageCount: 10 }),
      row("b", { originSession: "a", messageCount: 31 }),
      row("c", { originSession: "a", messageCount: 30 }),
    ];
    expect(lineageOf("a", family).chainQuality).toBe(0.5);
  });

  it("an origin that is not indexed leaves the copy without a parent it cannot name", () => {
    expect(parentsInFamily([row("b", { originSession: "gone" })]).get("b")).toBeNull();
  });
});
