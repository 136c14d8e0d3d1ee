import { describe, expect, it } from "vitest";
import { planPromptParts } from "./messages.ts";
import {
  appendHistory,
  HISTORY_MAX_CHARS,
  HISTORY_MAX_MESSAGES,
  historyEntry,
  newBridgeSession,
  SUMMARY_MAX_CHARS,
} from "./session.ts";

const now = new Date("2026-01-01T00:00:00Z");
const identity = { key: "dm:1", userId: "1", username: "u", channelId: null, channelName: null };

describe("appendHistory", () => {
  it("caps the history and folds what leaves it into the summary", () => {
    let session = newBridgeSession(identity, now);
    session = appendHistory(session, [historyEntry("user", "I prefer tabs over spaces, always.", now)]);
    for (let i = 0; i < 200; i += 1) {
      session = appendHistory(session, [
        historyEntry("user", `question ${i} ${"x".repeat(3_000)}`, now),
        historyEntry("assistant", `answer ${i}`, now),
      ]);
    }
    expect(session.history).toHaveLength(HISTORY_MAX_MESSAGES);
    expect(session.history.every((entry) => entry.text.length <= HISTORY_MAX_CHARS)).toBe(true);
    expect(session.history[0]?.chars).toBeGreaterThan(HISTORY_MAX_CHARS);
    expect(session.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(session.summary).toContain("answer 184");
  });
});

describe("planPromptParts", () => {
  it("sends a short message as it is", () => {
    expect(planPromptParts("hello", 15_000)).toEqual([{ index: 0, total: 1, prompt: "hello", chars: 5 }]);
  });

  it("cuts a 40,000-character paste into 3 parts that say how they belong together", () => {
    const text = Array.from({ length: 800 }, (_, i) => `line ${i} ${"y".repeat(40)}`).join("\n");
    const parts = planPromptParts(text.padEnd(40_000, "z"), 15_000);
    expect(parts).toHaveLength(3);
    expect(parts[0]?.prompt).toContain("arrives in 3 parts");
    expect(parts[1]?.prompt).toMatch(/^Here is more of the same message \(part 2 of 3\):/);
    expect(parts[2]?.prompt).toMatch(/^Here is more of the same message \(part 3 of 3\):/);
    expect(parts.reduce((sum, part) => sum + part.chars, 0)).toBe(40_000);
  });
});
