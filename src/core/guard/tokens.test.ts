import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { autoCompactSettingsFromEnv, autoCompactThreshold, inferWindowTokens, readContextFromTail } from "./tokens.ts";

const fixture = (path: string) => readFileSync(new URL(`../../../tests/fixtures/${path}`, import.meta.url), "utf8");
/** The first `count` lines of a transcript, newline-terminated, as Claude Code had written them then. */
const firstLines = (text: string, count: number) => `${text.split("\n").slice(0, count).join("\n")}\n`;

const LONG = fixture(
  "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
);

describe("readContextFromTail on the real fixtures (numbers the transcripts hold)", () => {
  it("the long spotter session: last main-chain usage before its compaction, unknown right after, then the next reply", () => {
    // Line 742/743: the last reply before the auto compact_boundary at line 754 (preTokens 170251).
    expect(readContextFromTail(firstLines(LONG, 753), true)).toMatchObject({ usedTokens: 164_831, source: "usage" });
    // Boundary written, no reply yet, and this version (2.1.39) records no postTokens: unknown, not 164,831.
    const atBoundary = readContextFromTail(firstLines(LONG, 759), true);
    expect(atBoundary).toMatchObject({ usedTokens: null, source: "unknown" });
    expect(atBoundary?.compaction).toEqual({
      at: expect.any(String),
      trigger: "auto",
      preTokens: 170_251,
      postTokens: null,
    });
    // Line 760: the first reply after the compaction.
    expect(readContextFromTail(firstLines(LONG, 760), true)).toMatchObject({ usedTokens: 36_081, source: "usage" });
    // The end of the session (line 1507), model id as the transcript has it.
    expect(readContextFromTail(LONG, true)).toMatchObject({
      usedTokens: 106_060,
      model: "claude-opus-4-6",
      compaction: null,
    });
  });

  it("skips sidechain replies (inline subagents of CC 1.0.x) and the `<synthetic>` API error", () => {
    const viewer = fixture("claude/projects/-path-to-Demo/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    // Lines 424-429 are sidechain replies (42,726 at line 429); the last main-chain one is line 228.
    expect(readContextFromTail(firstLines(viewer, 430), true)?.usedTokens).toBe(18_575);
    expect(readContextFromTail(viewer, true)?.usedTokens).toBe(21_552);
    const synthetic = fixture("transcripts/synthetic/task-tools.jsonl");
    expect(readContextFromTail(synthetic, true)?.usedTokens).toBe(12_105);
  });

  it("uses a boundary's postTokens until the next reply", () => {
    const synthetic = fixture("transcripts/synthetic/task-tools.jsonl");
    expect(readContextFromTail(firstLines(synthetic, 18), true)).toMatchObject({
      usedTokens: 9_000,
      source: "post-tokens",
      compaction: { trigger: "manual", preTokens: 50_000, postTokens: 9_000 },
    });
    expect(readContextFromTail(firstLines(synthetic, 19), true)?.usedTokens).toBe(9_003);
  });

  it("a tail that starts mid-file ignores its partial first line and says undecided when nothing settles it", () => {
    const lines = LONG.split("\n");
    const reply = lines[741] ?? "";
    // The reply's own second half is not a line: undecided.
    expect(readContextFromTail(reply.slice(reply.length / 2), false)).toBeNull();
    expect(readContextFromTail(`${reply.slice(10)}\n${lines[743]}\n`, false)).toBeNull();
    expect(readContextFromTail(`xx\n${reply}\n`, false)?.usedTokens).toBe(164_831);
    expect(readContextFromTail("", true)).toBeNull();
    expect(readContextFromTail('{"type":"assistant" not json\n', true)).toBeNull();
  });
});

describe("inferWindowTokens", () => {
  const base = { configured: 0, reported: null, model: null, usedTokens: null, extendedDisabled: false };
  it.each([
    [{}, 200_000],
    [{ configured: 500_000, reported: 200_000 }, 500_000],
    [{ reported: 1_000_000, model: "claude-opus-4-6" }, 1_000_000],
    [{ model: "claude-opus-4-6" }, 200_000],
    [{ model: "claude-opus-4-6[1m]" }, 1_000_000],
    [{ model: "Opus 4.6 (1M context)" }, 1_000_000],
    [{ model: "claude-sonnet-5" }, 1_000_000],
    [{ model: "claude-opus-4-8" }, 1_000_000],
    [{ model: "claude-opus-4-8", extendedDisabled: true }, 200_000],
    [{ model: "claude-opus-4-1-20250805" }, 200_000],
    [{ usedTokens: 250_000 }, 1_000_000],
  ])("%o -> %d", (input, expected) => {
    expect(inferWindowTokens({ ...base, ...input })).toBe(expected);
  });
});

describe("autoCompactThreshold", () => {
  it("window minus Claude Code's buffer, lowered by the overrides, the window itself when disabled", () => {
    const settings = (env: Record<string, string>) => autoCompactSettingsFromEnv(env, 33_000);
    expect(autoCompactThreshold(200_000, settings({}))).toBe(167_000);
    expect(autoCompactThreshold(1_000_000, settings({}))).toBe(967_000);
    expect(autoCompactThreshold(200_000, settings({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" }))).toBe(100_000);
    expect(autoCompactThreshold(200_000, settings({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "99" }))).toBe(167_000);
    expect(autoCompactThreshold(1_000_000, settings({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: "500000" }))).toBe(500_000);
    expect(autoCompactThreshold(200_000, settings({ DISABLE_AUTO_COMPACT: "1" }))).toBe(200_000);
    expect(
      autoCompactThreshold(200_000, settings({ DISABLE_AUTO_COMPACT: "0", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "x" })),
    ).toBe(167_000);
  });
});
