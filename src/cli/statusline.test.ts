import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config/defaults.ts";
import type { GuardState } from "../core/guard/state.ts";
import { stepGuard } from "../core/guard/tiers.ts";
import { guardStatePath, statusLinePath, writeGuardState } from "../store/guard/guard-store.ts";
import { MINIMAL_STATUS_LINE, renderStatusLine, runStatusLine, type StatusLineDeps } from "./statusline.ts";

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/statusline/${name}`, import.meta.url), "utf8"));

function project(): string {
  const root = join(mkdtempSync(join(tmpdir(), "ctx-statusline-")), "repo");
  mkdirSync(join(root, ".ctx"), { recursive: true });
  return root;
}

const deps = (root: string, env: NodeJS.ProcessEnv = {}): StatusLineDeps => ({
  env,
  now: () => new Date("2026-11-22T12:00:00.000Z"),
  cwd: root,
  findProjectRoot: () => root,
  loadConfig: () => defaultConfig(),
});

/** The modern stdin (docs/claude-code-facts.md "Context-window usage"): current_usage and the window size. */
const modern = (sessionId: string, current: object | null, size = 200_000) => ({
  session_id: sessionId,
  transcript_path: "/nonexistent.jsonl",
  cwd: "/repo",
  model: { id: "claude-opus-4-6", display_name: "Opus 4.6" },
  context_window: {
    total_input_tokens: 15_500,
    total_output_tokens: 1_200,
    context_window_size: size,
    used_percentage: 8,
    remaining_percentage: 92,
    current_usage: current,
  },
  cost: { total_cost_usd: 0.42 },
});

describe("ctx statusline", () => {
  it("prints one line from the real status-line samples and records the figures it received (0600)", async () => {
    const root = project();
    const input = fixture("statusline-test-opus4.json");
    expect(await renderStatusLine(JSON.stringify(input), deps(root))).toBe("ctx 43% used (85K/200K) · ok");
    const recorded = JSON.parse(readFileSync(statusLinePath(root, input.session_id), "utf8"));
    expect(recorded).toMatchObject({
      receivedAt: "2026-11-22T12:00:00.000Z",
      model: { id: "claude-opus-4-1-20250805" },
      context_window: { total_input_tokens: 85_000, context_window_size: 200_000 },
      cost: { total_cost_usd: 0.0892 },
    });
    expect(statSync(statusLinePath(root, input.session_id)).mode & 0o777).toBe(0o600);
  });

  it("uses current_usage, the reported window, and the guard's tier, velocity and forecast", async () => {
    const root = project();
    let state: GuardState | null = null;
    for (const [i, used] of [100_000, 102_000, 104_000].entries()) {
      state = stepGuard(
        state,
        {
          sessionId: "s1",
          at: `2026-11-22T11:00:0${i}.000Z`,
          reading: { usedTokens: used, source: "usage", model: null, at: null, compaction: null },
          windowTokens: 200_000,
          autoCompactTokens: 167_000,
        },
        defaultConfig().guard,
      ).state;
    }
    writeGuardState(root, state as unknown as GuardState);
    const current = {
      input_tokens: 8,
      output_tokens: 50,
      cache_creation_input_tokens: 2_000,
      cache_read_input_tokens: 107_992,
    };
    expect(await renderStatusLine(JSON.stringify(modern("s1", current)), deps(root))).toBe(
      "ctx 55% used (110K/200K) · warning · +1%/op · ~28 ops to compact",
    );
    // A 1M window as the status line reports it: 110K is 11%.
    expect(await renderStatusLine(JSON.stringify(modern("s2", current, 1_000_000)), deps(root))).toBe(
      "ctx 11% used (110K/1M) · ok",
    );
  });

  it("right after /compact (current_usage null) the size is unknown, not guessed", async () => {
    const root = project();
    expect(await renderStatusLine(JSON.stringify(modern("s3", null)), deps(root))).toBe("ctx 200K window · ok");
  });

  it("never fails: garbage, empty or mistyped stdin gives the minimal line", async () => {
    const root = project();
    expect(await renderStatusLine("not json", deps(root))).toBe(MINIMAL_STATUS_LINE);
    expect(await renderStatusLine("", deps(root))).toBe(MINIMAL_STATUS_LINE);
    expect(await renderStatusLine(JSON.stringify({ session_id: 5 }), deps(root))).toBe(MINIMAL_STATUS_LINE);
    const broken = {
      ...deps(root),
      loadConfig: () => {
        throw new Error("bad config");
      },
    };
    expect(await renderStatusLine(JSON.stringify(fixture("statusline-test.json")), broken)).toMatch(/^ctx \d+% used/);
    const out: string[] = [];
    await runStatusLine(Readable.from([Buffer.from("{")]), (text) => out.push(text), deps(root));
    expect(out).toEqual(["ctx\n"]);
    // A damaged guard file is no measurement, not a failure.
    mkdirSync(join(root, ".ctx", "guard"), { recursive: true });
    writeFileSync(guardStatePath(root, "s9"), "{");
    const current = { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 39_999 };
    expect(await renderStatusLine(JSON.stringify(modern("s9", current)), deps(root))).toBe(
      "ctx 20% used (40K/200K) · ok",
    );
  });
});
