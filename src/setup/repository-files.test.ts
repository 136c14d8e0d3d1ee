import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeRepositoryFiles } from "./repository-files.ts";

describe("writeRepositoryFiles", () => {
  it("writes each file under the repository, making its folders", async () => {
    const repo = mkdtempSync(join(tmpdir(), "ctx-repo-files-"));
    const written = await writeRepositoryFiles(repo, { "hooks/hooks.json": "{}\n", ".claude/settings.json": "[]\n" });
    expect(written).toEqual(["hooks/hooks.json", ".claude/settings.json"]);
    expect(readFileSync(join(repo, "hooks/hooks.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(join(repo, ".claude/settings.json"), "utf8")).toBe("[]\n");
  });

  it("writes nothing when a folder on a path is a link that leaves the repository", async () => {
    const repo = mkdtempSync(join(tmpdir(), "ctx-repo-files-"));
    const outside = mkdtempSync(join(tmpdir(), "ctx-repo-outside-"));
    symlinkSync(outside, join(repo, ".claude"));
    mkdirSync(join(repo, "hooks"));
    await expect(
      writeRepositoryFiles(repo, { "hooks/hooks.json": "{}\n", ".claude/settings.json": "[]\n" }),
    ).rejects.toThrow(/\.claude/);
    expect(() => readFileSync(join(repo, "hooks/hooks.json"))).toThrow();
    expect(() => readFileSync(join(outside, "settings.json"))).toThrow();
  });
});
