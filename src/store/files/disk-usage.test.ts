import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diskUsage } from "./disk-usage.ts";

describe("diskUsage", () => {
  it("adds up the regular files below a folder and never follows a link out of it", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-du-"));
    const dir = join(base, ".ctx");
    mkdirSync(join(dir, "snapshots"), { recursive: true });
    writeFileSync(join(dir, "state.ctx"), Buffer.alloc(1000));
    writeFileSync(join(dir, "snapshots", "a.ctx"), Buffer.alloc(500));
    const outside = join(base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "big"), Buffer.alloc(100_000));
    symlinkSync(outside, join(dir, "linked"));
    symlinkSync(join(outside, "big"), join(dir, "big-link"));
    expect(await diskUsage(dir)).toBe(1500);
    expect(await diskUsage(join(base, "missing"))).toBe(0);
  });
});
