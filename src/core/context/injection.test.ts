import { describe, expect, it } from "vitest";
import { decideFallback, newInjection } from "./injection.ts";

describe("compact re-injection fallback", () => {
  const pending = newInjection("s1", "20261122T100000000Z-abcdef", new Date("2026-11-22T10:00:00Z"));

  it("has a token naming the snapshot", () => {
    expect(pending.token).toBe("ctx-restore:20261122T100000000Z-abcdef");
  });

  it("injects when the token never reached the transcript, settles when it did", () => {
    expect(decideFallback(pending, "s1", false)).toBe("inject");
    expect(decideFallback(pending, "s1", true)).toBe("settle");
  });

  it("does nothing for another session, a settled injection, or none at all", () => {
    expect(decideFallback(pending, "s2", false)).toBe("none");
    expect(decideFallback({ ...pending, settled: true }, "s1", false)).toBe("none");
    expect(decideFallback(null, "s1", false)).toBe("none");
  });
});
