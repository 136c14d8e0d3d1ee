import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  contextTokensOf,
  isCompactBoundary,
  isCompactSummary,
  isMainChain,
  isMeta,
  isSkipped,
  type ParsedLine,
  parseTranscriptLine,
  type TranscriptEntry,
  titleOf,
} from "./entries.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const LONG =
  "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl";

function fixtureLines(name: string): ParsedLine[] {
  return readFileSync(join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map(parseTranscriptLine);
}

function entry(line: string): TranscriptEntry {
  const parsed = parseTranscriptLine(line);
  if (isSkipped(parsed)) throw new Error(`skipped: ${parsed.skipped}`);
  return parsed;
}

describe("parseTranscriptLine", () => {
  it("reads every conversation line of the long real session and skips its bookkeeping as meta", () => {
    const lines = fixtureLines(LONG);
    const counts: Record<string, number> = {};
    for (const line of lines) {
      const key = isSkipped(line) ? `skipped:${line.skipped}` : line.type;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    // 1,512 lines: 154 user, 254 assistant, 6 system; progress, file-history-snapshot and queue-operation are meta.
    expect(counts).toEqual({ user: 154, assistant: 254, system: 6, "skipped:meta": 1098 });
  });

  it("finds the compaction boundary and the compact summary right after it", () => {
    const lines = fixtureLines(LONG);
    const boundary = lines.findIndex((line) => !isSkipped(line) && isCompactBoundary(line));
    expect(boundary).toBe(753);
    const found = lines[boundary] as TranscriptEntry;
    expect(isCompactBoundary(found) && found.compactMetadata).toMatchObject({ trigger: "auto", preTokens: 170251 });
    const next = lines[boundary + 1] as TranscriptEntry;
    expect(isCompactSummary(next)).toBe(true);
  });

  it("reads the old format: a summary record first and inline sidechains", () => {
    const lines = fixtureLines("claude/projects/-path-to-Demo/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    const first = lines[0] as TranscriptEntry;
    expect(titleOf(first)).toBe("Empty Repo Setup: CLAUDE.md Foundation Created");
    const entries = lines.filter((line): line is TranscriptEntry => !isSkipped(line));
    expect(entries).toHaveLength(438);
    expect(entries.filter((e) => !isMainChain(e))).toHaveLength(405);
  });

  it("skips and names what is not an entry, and never throws", () => {
    expect(parseTranscriptLine("not json")).toEqual({ skipped: "malformed" });
    expect(parseTranscriptLine("")).toEqual({ skipped: "malformed" });
    expect(parseTranscriptLine("[1,2]")).toEqual({ skipped: "malformed" });
    expect(parseTranscriptLine("null")).toEqual({ skipped: "malformed" });
    expect(parseTranscriptLine('{"no":"type"}')).toEqual({ skipped: "malformed" });
    expect(parseTranscriptLine('{"type":"user","uuid":"u"}')).toEqual({ skipped: "malformed" });
    expect(parseTranscriptLine('{"type":"progress","data":{}}')).toEqual({ skipped: "meta" });
    expect(parseTranscriptLine('{"type":"toString"}')).toEqual({ skipped: "unknown-type" });
    expect(parseTranscriptLine('{"type":"hologram","uuid":"x"}')).toEqual({ skipped: "unknown-type" });
    for (let seed = 0; seed < 500; seed += 1) {
      const garbage = Array.from({ length: seed % 40 }, (_, i) => String.fromCharCode((seed * 31 + i * 7) % 128)).join(
        "",
      );
      expect(() => parseTranscriptLine(garbage)).not.toThrow();
    }
  });

  it("lets unknown fields through", () => {
    const parsed = entry('{"type":"user","uuid":"u","newField":{"a":1},"message":{"role":"user","content":"hi"}}');
    expect(parsed).toMatchObject({ newField: { a: 1 } });
  });

  it("reads title records, custom before generated", () => {
    expect(titleOf(entry('{"type":"custom-title","customTitle":" Mine ","sessionId":"s"}'))).toBe("Mine");
    expect(titleOf(entry('{"type":"ai-title","aiTitle":"Generated"}'))).toBe("Generated");
    expect(titleOf(entry('{"type":"user","uuid":"u","message":{"content":"hi"}}'))).toBeNull();
  });
});

describe("entry predicates", () => {
  const assistant = (extra: object, model = "claude-opus-4-6") =>
    entry(JSON.stringify({ type: "assistant", uuid: "a", message: { model, content: [] }, ...extra }));

  it("keeps sidechains, API errors and synthetic replies off the main chain", () => {
    expect(isMainChain(assistant({}))).toBe(true);
    expect(isMainChain(assistant({ isSidechain: true }))).toBe(false);
    expect(isMainChain(assistant({ isApiErrorMessage: true }))).toBe(false);
    expect(isMainChain(assistant({}, "<synthetic>"))).toBe(false);
  });

  it("recognises injected text", () => {
    expect(isMeta(entry('{"type":"user","uuid":"u","isMeta":true,"message":{"content":"skill body"}}'))).toBe(true);
    expect(isMeta(entry('{"type":"user","uuid":"u","message":{"content":"typed"}}'))).toBe(false);
  });

  it("sums the input side of usage and ignores output", () => {
    expect(
      contextTokensOf({
        input_tokens: 3,
        cache_creation_input_tokens: 13835,
        cache_read_input_tokens: 11515,
        output_tokens: 13,
      }),
    ).toBe(25353);
    expect(contextTokensOf({ input_tokens: 5 })).toBe(5);
    expect(contextTokensOf({ output_tokens: 5 })).toBeNull();
    expect(contextTokensOf(undefined)).toBeNull();
  });
});
