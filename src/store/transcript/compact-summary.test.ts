import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFreshCompactSummary } from "./compact-summary.ts";

const line = (entry: object) =>
  JSON.stringify({ sessionId: "s", cwd: "/p", parentUuid: null, isSidechain: false, ...entry });
const boundary = (timestamp: string) =>
  line({
    type: "system",
    subtype: "compact_boundary",
    uuid: `b-${timestamp}`,
    timestamp,
    content: "Conversation compacted",
  });
const summary = (text: string, timestamp: string) =>
  line({
    type: "user",
    uuid: `s-${text}`,
    timestamp,
    isCompactSummary: true,
    message: { role: "user", content: text },
  });
const prompt = (text: string) => line({ type: "user", uuid: `u-${text}`, message: { role: "user", content: text } });

function transcript(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "ctx-fresh-summary-")), "t.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const SAVED = "2026-11-24T18:00:00.000Z";

describe("the summary of the compaction that followed a save", () => {
  it("is the summary entry after a boundary written after the save", async () => {
    const path = transcript([
      prompt("a"),
      boundary("2026-11-24T18:00:01.000Z"),
      summary("NEW", "2026-11-24T18:00:01.000Z"),
      prompt("b"),
    ]);
    expect((await readFreshCompactSummary(path, SAVED))?.text).toBe("NEW");
  });

  it("is not an earlier compaction's, nor one in a transcript without a boundary", async () => {
    const earlier = transcript([
      boundary("2026-11-24T17:00:00.000Z"),
      summary("OLD", "2026-11-24T17:00:00.000Z"),
      prompt("x"),
    ]);
    expect(await readFreshCompactSummary(earlier, SAVED)).toBeNull();
    expect(await readFreshCompactSummary(transcript([prompt("x")]), SAVED)).toBeNull();
    expect(await readFreshCompactSummary("/no/such/file.jsonl", SAVED)).toBeNull();
  });

  it("looks only at the tail it is given", async () => {
    const path = transcript([
      boundary("2026-11-24T18:00:01.000Z"),
      summary("NEW", "2026-11-24T18:00:01.000Z"),
      prompt("y".repeat(5_000)),
    ]);
    expect(await readFreshCompactSummary(path, SAVED, 1_000)).toBeNull();
    expect((await readFreshCompactSummary(path, SAVED, 100_000))?.text).toBe("NEW");
  });
});
