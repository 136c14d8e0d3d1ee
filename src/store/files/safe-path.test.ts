// replaceFileSync, the hint files' write: the new text replaces the old, 0600, and a failed replace throws and
// leaves no temp file behind.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replaceFileSync } from "./safe-path.ts";

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
