import { describe, expect, it } from "vitest";
import { type FoldItem, foldSummaries } from "./fold.ts";

const reply = (text: string): FoldItem => ({ role: "assistant", kind: "reply", text });

describe("foldSummaries", () => {
  it("is one line per message while that fits", () => {
    expect(
      foldSummaries([{ role: "user", kind: "prompt", text: "Add retries" }, reply("Done.\nBash(npm test)")], 500),
    ).toBe("User: Add retries\nAssistant: Done.; Bash(npm test)");
  });

  it("over its size keeps the requests, the compaction summary and the densest lines, and lists dropped paths", () => {
    const items: FoldItem[] = [
      { role: "user", kind: "compact-summary", text: "Earlier: the cache was moved to SQLite." },
      { role: "user", kind: "prompt", text: "Fix the login bug" },
      ...Array.from({ length: 40 }, (_, i) => reply(`Looked around a bit more, nothing notable in step ${i}.`)),
      reply("Edited lib/auth/session.ex to fix the TypeError in login/2"),
      ...Array.from({ length: 40 }, () => reply("Still looking.")),
      reply("Read config/dev.exs"),
    ];
    const folded = foldSummaries(items, 700);
    expect(folded.length).toBeLessThanOrEqual(700);
    expect(folded).toContain("Earlier summary: Earlier: the cache was moved to SQLite.");
    expect(folded).toContain("User: Fix the login bug");
    expect(folded).toContain("lib/auth/session.ex");
    expect(folded).toMatch(/of 84 earlier messages left out/);
  });
});
