import { describe, expect, it } from "vitest";
import { type DuplicateRow, findDuplicates } from "./duplicates.ts";

const row = (id: string, fields: Partial<DuplicateRow> = {}): DuplicateRow => ({
  id,
  rootUuid: "root",
  originSession: null,
  copiedRoot: false,
  messageCount: 4,
  createdAt: 100,
  replies: 2,
  ownReplies: 2,
  ...fields,
});

describe("findDuplicates", () => {
  it("folds a copy without a reply of its own into its parent", () => {
    const family = [row("orig"), row("copy", { originSession: "orig", ownReplies: 0, messageCount: 5 })];
    // One more message (an unanswered prompt: the tolerance) does not make the copy the canonical one.
    expect(findDuplicates(family)).toEqual(new Map([["copy", "orig"]]));
  });

  it("never folds a fork that went on", () => {
    expect(findDuplicates([row("orig"), row("fork", { originSession: "orig", replies: 3, ownReplies: 1 })])).toEqual(
      new Map(),
    );
  });

  it("makes the member with the most content canonical, and folds chains of copies into it", () => {
    const family = [
      row("orig", { replies: 2 }),
      // A copy holding more than its parent's file now does (say the parent's transcript was cut short).
      row("a", { originSession: "orig", ownReplies: 0, replies: 2, createdAt: 100 }),
      row("b", { originSession: "a", ownReplies: 0, replies: 2, createdAt: 100 }),
      row("bigger", { originSession: "orig", ownReplies: 0, replies: 5 }),
    ];
    expect(findDuplicates(family)).toEqual(
      new Map([
        ["orig", "bigger"],
        ["a", "bigger"],
        ["b", "bigger"],
      ]),
    );
  });

  it("breaks ties by age, then the original over a copy", () => {
    const family = [
      row("z-orig", { createdAt: 100 }),
      row("a-copy", { copiedRoot: true, ownReplies: 0, createdAt: 100 }),
      row("older-copy", { originSession: "z-orig", ownReplies: 0, createdAt: 50 }),
    ];
    expect(findDuplicates(family)).toEqual(
      new Map([
        ["z-orig", "older-copy"],
        ["a-copy", "older-copy"],
      ]),
    );
  });

  it("leaves a family of originals alone (no parent, nothing copied)", () => {
    expect(findDuplicates([row("one"), row("two")])).toEqual(new Map());
  });
});
