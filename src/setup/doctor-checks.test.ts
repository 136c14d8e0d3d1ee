import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeOrphanedTempFiles } from "../store/files/atomic-write.ts";
import { countLeftoverTempFiles, LEFTOVER_TEMP_MIN_AGE_MS } from "./doctor-checks.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-doctor-temp-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = [
  ".state.ctx.123.0123456789ab.tmp",
  ".sessions.ctx.9.abcdefabcdef.tmp",
  "state.ctx",
  ".state.ctx.123.0123456789ab.tmp.bak",
  ".state.ctx.x.0123456789ab.tmp",
  "notes.tmp",
];

describe("countLeftoverTempFiles", () => {
  it("counts exactly the files the store's own cleanup would remove (the two name patterns stay in step)", async () => {
    for (const name of NAMES) writeFileSync(join(dir, name), "x");
    const later = Date.now() + LEFTOVER_TEMP_MIN_AGE_MS + 1000;
    const counted = await countLeftoverTempFiles(dir, later);
    expect(readdirSync(dir)).toHaveLength(NAMES.length);
    const removed = await removeOrphanedTempFiles(dir, 0);
    expect(counted).toBe(removed.length);
    expect(counted).toBe(2);
  });

  it("skips fresh ones (a live writer), looks into subfolders, and is 0 without .ctx/", async () => {
    mkdirSync(join(dir, "checkpoints"));
    writeFileSync(join(dir, "checkpoints", ".1.ctx.5.0123456789ab.tmp"), "x");
    expect(await countLeftoverTempFiles(dir)).toBe(0);
    expect(await countLeftoverTempFiles(dir, Date.now() + LEFTOVER_TEMP_MIN_AGE_MS + 1000)).toBe(1);
    expect(await countLeftoverTempFiles(join(dir, "missing"))).toBe(0);
  });
});
