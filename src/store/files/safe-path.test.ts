// replaceFileSync, the hint files' write: the new text replaces the old, 0600, and a failed replace throws and
// leaves no temp file behind.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertOwnFolderOrAbsent, replaceFileSync } from "./safe-path.ts";

describe("replaceFileSync", () => {
  it("replaces the file's text, 0600, with nothing else left in the folder", () => {
    const folder = mkdtempSync(join(tmpdir(), "ctx-replace-"));
    const path = join(folder, "mark.json");
    writeFileSync(path, "old", { mode: 0o644 });
    replaceFileSync(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(["mark.json"]);
  });

  it("throws when it cannot replace, and leaves no temp file", () => {
    const folder = mkdtempSync(join(tmpdir(), "ctx-replace-"));
    mkdirSync(join(folder, "mark.json")); // a folder where the file goes: the rename fails
    expect(() => replaceFileSync(join(folder, "mark.json"), "new")).toThrow();
    expect(readdirSync(folder)).toEqual(["mark.json"]);
    expect(() => replaceFileSync(join(folder, "missing", "mark.json"), "new")).toThrow(/ENOENT/);
  });
});

describe("assertOwnFolderOrAbsent", () => {
  it("passes a real folder and a missing one, and refuses a link (even to a folder) or a file, naming it", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-own-folder-"));
    mkdirSync(join(base, "real"));
    writeFileSync(join(base, "file"), "x");
    symlinkSync(join(base, "real"), join(base, "link"));
    await expect(assertOwnFolderOrAbsent(join(base, "real"))).resolves.toBeUndefined();
    await expect(assertOwnFolderOrAbsent(join(base, "missing"))).resolves.toBeUndefined();
    await expect(assertOwnFolderOrAbsent(join(base, "link"), "link")).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: "link is a link; ctx replaces only a folder of its own there",
    });
    await expect(assertOwnFolderOrAbsent(join(base, "file"), "file")).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: expect.stringContaining("file is not a folder"),
    });
  });
});
