// The bounded wait for a line of the transcript: already there, landing while waiting, never, or no file; and the
// Stop hook's last reply as it is searched inside the transcript's JSON.
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { awaitToolUseLine, awaitTranscriptText, lastReplyMarker } from "./await-tool-use.ts";

const transcript = () => join(mkdtempSync(join(tmpdir(), "ctx-await-")), "t.jsonl");
const reply = (text: string) =>
  `${JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text }] } })}\n`;

describe("awaitTranscriptText", () => {
  it("finds a line already there, one that lands while waiting, and gives up after the time limit", async () => {
    const path = transcript();
    writeFileSync(
      path,
      `${JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", id: "toolu_a" }] } })}\n`,
    );
    expect((await awaitToolUseLine(path, "toolu_a")).outcome).toBe("present");
    setTimeout(() => appendFileSync(path, reply('Done: "quoted"\nand a second line.')), 50);
    const marker = lastReplyMarker('Done: "quoted"\nand a second line.') ?? "";
    expect((await awaitTranscriptText(path, marker, { timeoutMs: 2_000 })).outcome).toBe("arrived");
    expect((await awaitTranscriptText(path, "never written", { timeoutMs: 60 })).outcome).toBe("timeout");
  });

  it("says where the line holding the text ends, in bytes, also when later lines have landed", async () => {
    const path = transcript();
    const first = reply("Überprüft: ✓ 😀"); // multi-byte characters before the line searched
    const toolUse = `${JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", id: "toolu_b" }] } })}\n`;
    writeFileSync(path, first + toolUse + reply("a later reply"));
    const end = Buffer.byteLength(first + toolUse);
    expect(await awaitToolUseLine(path, "toolu_b")).toMatchObject({ outcome: "present", lineEnd: end });
    writeFileSync(path, first);
    setTimeout(() => appendFileSync(path, toolUse + reply("a later reply")), 30);
    expect(await awaitToolUseLine(path, "toolu_b", { timeoutMs: 2_000 })).toMatchObject({
      outcome: "arrived",
      lineEnd: end,
    });
    expect((await awaitToolUseLine(path, "toolu_none", { timeoutMs: 20 })).lineEnd).toBeNull();
  });

  it("says missing for no file, without waiting", async () => {
    const result = await awaitTranscriptText(join(tmpdir(), "ctx-no-such-transcript.jsonl"), "x", { timeoutMs: 5_000 });
    expect(result).toEqual({ outcome: "missing", waitedMs: 0, lineEnd: null });
  });
});

describe("lastReplyMarker", () => {
  it("is the reply's first 120 characters as JSON writes them; null for nothing", () => {
    expect(lastReplyMarker('say "hi"\n')).toBe('say \\"hi\\"');
    expect(lastReplyMarker("x".repeat(500))).toBe("x".repeat(120));
    expect(lastReplyMarker(`${"x".repeat(119)}😀 more`)).toBe("x".repeat(119));
    expect(lastReplyMarker("  ")).toBeNull();
    expect(lastReplyMarker(null)).toBeNull();
    expect(lastReplyMarker(undefined)).toBeNull();
  });
});
