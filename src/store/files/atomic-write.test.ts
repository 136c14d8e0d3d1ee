import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensurePrivateDir, removeOrphanedTempFiles, writeFileAtomic } from "./atomic-write.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-atomic-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("writeFileAtomic", () => {
  it("writes bytes and strings, mode 0600, leaving no temp file", async () => {
    const path = join(dir, "state.ctx");
    await writeFileAtomic(path, Uint8Array.of(1, 2, 3));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    await writeFileAtomic(join(dir, "notes.json"), '{"ok":true}');
    expect(readFileSync(join(dir, "notes.json"), "utf8")).toBe('{"ok":true}');
    expect(modeOf(path)).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(["notes.json", "state.ctx"]);
  });

  it("replaces an existing file, also tightening its mode to 0600", async () => {
    const path = join(dir, "state.ctx");
    writeFileSync(path, "old contents that are longer than the new ones");
    chmodSync(path, 0o644);
    await writeFileAtomic(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(modeOf(path)).toBe(0o600);
  });

  it("removes its temp file and keeps the old target when the rename fails", async () => {
    const target = join(dir, "occupied");
    mkdirSync(join(target, "child"), { recursive: true }); // renaming a file over a non-empty folder fails
    await expect(writeFileAtomic(target, "data")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["occupied"]);
    expect(readdirSync(target)).toEqual(["child"]);
  });

  it("fails without leaving anything when the folder does not exist", async () => {
    await expect(writeFileAtomic(join(dir, "missing", "state.ctx"), "x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("gives concurrent writers distinct temp files, so one of the whole versions wins", async () => {
    const path = join(dir, "state.ctx");
    const versions = Array.from({ length: 20 }, (_, i) => `version ${i} `.repeat(1000));
    await Promise.all(versions.map((v) => writeFileAtomic(path, v)));
    expect(versions).toContain(readFileSync(path, "utf8"));
    expect(readdirSync(dir)).toEqual(["state.ctx"]);
  });
});

describe("ensurePrivateDir", () => {
  it("creates missing folders recursively with mode 0700", async () => {
    const deep = join(dir, "project", ".ctx", "snapshots");
    await ensurePrivateDir(deep);
    expect(modeOf(deep)).toBe(0o700);
    expect(modeOf(join(dir, "project", ".ctx"))).toBe(0o700);
  });

  it("tightens an existing folder that others can read", async () => {
    const ctxDir = join(dir, ".ctx");
    mkdirSync(ctxDir);
    chmodSync(ctxDir, 0o755);
    await ensurePrivateDir(ctxDir);
    expect(modeOf(ctxDir)).toBe(0o700);
  });

  it("leaves an already private folder and its contents alone", async () => {
    const ctxDir = join(dir, ".ctx");
    mkdirSync(ctxDir, { mode: 0o700 });
    writeFileSync(join(ctxDir, "keep"), "x");
    await ensurePrivateDir(ctxDir);
    expect(modeOf(ctxDir)).toBe(0o700);
    expect(readFileSync(join(ctxDir, "keep"), "utf8")).toBe("x");
  });
});

describe("removeOrphanedTempFiles", () => {
  it("removes only old temp files of the writeFileAtomic shape", async () => {
    const names = {
      orphan: ".state.ctx.4242.0123456789ab.tmp",
      fresh: ".state.ctx.4243.ba9876543210.tmp",
      other: ".notes.tmp",
      state: "state.ctx",
    };
    for (const name of Object.values(names)) writeFileSync(join(dir, name), "x");
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of [names.orphan, names.other, names.state]) utimesSync(join(dir, name), hourAgo, hourAgo);
    expect(await removeOrphanedTempFiles(dir)).toEqual([names.orphan]);
    expect(readdirSync(dir).sort()).toEqual([names.other, names.fresh, names.state].sort());
    expect(await removeOrphanedTempFiles(dir, 0)).toEqual([names.fresh]);
  });
});
