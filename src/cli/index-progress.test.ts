import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import type { CliContext } from "./command-io.ts";
import { createIndexProgress, formatEta } from "./index-progress.ts";
import { writerOf } from "./output.ts";

function context(stderrIsTTY: boolean): { ctx: CliContext; stderr: () => string } {
  let stderr = "";
  const ctx: CliContext = {
    cwd: "/",
    env: {},
    stdin: Readable.from([]),
    out: () => {},
    // As the program gives it to commands (createProgram): sanitized, then painted.
    err: writerOf((text) => {
      stderr += text;
    }),
    logger: silentLogger,
    setExitCode: () => {},
    stderrIsTTY,
  };
  return { ctx, stderr: () => stderr };
}

describe("index progress", () => {
  it("formats the estimate in seconds, minutes or hours", () => {
    expect(formatEta(null)).toBe("");
    expect(formatEta(200)).toBe("~1 s left");
    expect(formatEta(40_000)).toBe("~40 s left");
    expect(formatEta(125_000)).toBe("~2 min left");
    expect(formatEta(3 * 3_600_000)).toBe("~3 h left");
  });

  it("draws a bar on a terminal: session count and time left", () => {
    const { ctx, stderr } = context(true);
    const progress = createIndexProgress(ctx, { quiet: false });
    progress.update({ done: 47, total: 342, sessionId: "s", etaMs: 120_000 });
    progress.stop();
    expect(stderr()).toContain("Indexing session 47 of 342");
    expect(stderr()).toContain("~2 min left");
    // The bar's own cursor controls survive the sanitizer (its paint keeps them): hide the cursor, show it again.
    expect(stderr()).toContain("\u001b[?25l");
    expect(stderr()).toContain("\u001b[?25h");
  });

  it("off a terminal prints a plain line at most every 10 s; quiet prints nothing", () => {
    let now = 0;
    const { ctx, stderr } = context(false);
    const progress = createIndexProgress(ctx, { quiet: false, now: () => now });
    progress.update({ done: 1, total: 9, sessionId: "s", etaMs: null });
    now = 10_000;
    progress.update({ done: 2, total: 9, sessionId: "s", etaMs: 30_000 });
    now = 12_000;
    progress.update({ done: 3, total: 9, sessionId: "s", etaMs: 20_000 });
    expect(stderr()).toBe("Indexing session 2 of 9 … ~30 s left\n");

    const quiet = context(true);
    const silent = createIndexProgress(quiet.ctx, { quiet: true });
    silent.update({ done: 1, total: 2, sessionId: "s", etaMs: 1 });
    silent.stop();
    expect(quiet.stderr()).toBe("");
  });
});
