// Event-relative bounds: read only as "before/after/since the <words>", never as a story's anchor or a time word.
import { describe, expect, it } from "vitest";
import { onEventSide, parseQueryEvent } from "./query-event.ts";

describe("parseQueryEvent", () => {
  it("reads before, after and since the event, up to punctuation or a joining word", () => {
    expect(parseQueryEvent("lint config before the migration to pnpm")).toEqual({
      side: "before",
      words: "the migration to pnpm",
    });
    expect(parseQueryEvent("flaky tests since the auth rewrite, in ci")).toEqual({
      side: "after",
      words: "the auth rewrite",
    });
    expect(parseQueryEvent("what broke after the deploy and the rollback")).toEqual({
      side: "after",
      words: "the deploy",
    });
  });

  it("leaves anchors, time words and one-word bounds alone", () => {
    for (const text of [
      "the week before the launch",
      "before the weekend",
      "after lunch",
      "before the",
      "re-run after-the-fact checks",
      "docker compose networking",
    ]) {
      expect(parseQueryEvent(text), text).toBeNull();
    }
  });
});

describe("onEventSide", () => {
  const event = { createdAt: 1_000, updatedAt: 2_000 };
  it("counts the event's own session on both sides", () => {
    expect(onEventSide("before", { createdAt: 500, updatedAt: 900 }, event)).toBe(true);
    expect(onEventSide("before", event, event)).toBe(true);
    expect(onEventSide("before", { createdAt: 2_500, updatedAt: 3_000 }, event)).toBe(false);
    expect(onEventSide("after", { createdAt: 2_500, updatedAt: 3_000 }, event)).toBe(true);
    expect(onEventSide("after", event, event)).toBe(true);
    expect(onEventSide("after", { createdAt: 100, updatedAt: 900 }, event)).toBe(false);
  });
});
