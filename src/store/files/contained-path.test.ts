import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertAllInside, isWithin, resolveInside, resolveReal } from "./contained-path.ts";

let base: string;
let repo: string;
let outside: string;
const label = { label: "the repository" };

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-contained-")));
  repo = join(base, "repo");
  outside = join(base, "home");
  mkdirSync(repo);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("resolveInside", () => {
  it("gives plain and missing paths inside as they are", async () => {
    expect(await resolveInside(repo, ".claude/settings.json", label)).toBe(join(repo, ".claude", "settings.json"));
    expect(await resolveInside(repo, ".", label)).toBe(repo);
  });

  it("follows a link that stays inside to its target", async () => {
    mkdirSync(join(repo, "shared"));
    writeFileSync(join(repo, "shared", "mcp.json"), "{}");
    symlinkSync("shared/mcp.json", join(repo, ".mcp.json"));
    symlinkSync("shared", join(repo, ".claude"));
    expect(await resolveInside(repo, ".mcp.json", label)).toBe(join(repo, "shared", "mcp.json"));
    expect(await resolveInside(repo, ".claude/commands/x.md", label)).toBe(join(repo, "shared", "commands", "x.md"));
  });

  it("refuses a file link leading out, naming the link and where it leads", async () => {
    writeFileSync(join(outside, ".bashrc"), "x");
    symlinkSync(join(outside, ".bashrc"), join(repo, ".gitignore"));
    await expect(resolveInside(repo, ".gitignore", label)).rejects.toMatchObject({
      code: "UNSAFE_PATH",
      message: `.gitignore is a symbolic link to ${join(outside, ".bashrc")}, which leads to ${join(outside, ".bashrc")}, outside the repository ${repo}`,
    });
  });

  it("refuses a folder link leading out for every path below it, existing or not", async () => {
    symlinkSync(outside, join(repo, ".claude"));
    await expect(resolveInside(repo, ".claude/settings.json", label)).rejects.toMatchObject({
      message: expect.stringMatching(/^\.claude is a symbolic link to /),
    });
    await expect(resolveInside(repo, ".claude/commands/fork-detect.md", label)).rejects.toMatchObject({
      code: "UNSAFE_PATH",
    });
  });

  it("refuses a dangling link whose target would be outside, and a relative link climbing out", async () => {
    symlinkSync(join(outside, "missing", "x.json"), join(repo, ".mcp.json"));
    symlinkSync("../home/notes.md", join(repo, "notes.md"));
    for (const path of [".mcp.json", "notes.md"])
      await expect(resolveInside(repo, path, label)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });

  it("refuses a link chain that leaves and a path that climbs out with ..", async () => {
    symlinkSync(join(outside, "b"), join(repo, "a"));
    symlinkSync(join(outside, "target"), join(outside, "b"));
    await expect(resolveInside(repo, "a", label)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    await expect(resolveInside(repo, "../home/x", label)).rejects.toMatchObject({
      message: expect.stringContaining("outside the repository"),
    });
  });

  it("accepts a root reached through a link (its real path is the root)", async () => {
    symlinkSync(repo, join(base, "alias"));
    expect(await resolveInside(join(base, "alias"), "x.md", label)).toBe(join(repo, "x.md"));
  });

  it("assertAllInside refuses the whole list when one path leads out", async () => {
    symlinkSync(outside, join(repo, ".claude"));
    await expect(assertAllInside(repo, [".mcp.json", ".claude/settings.json"], label)).rejects.toMatchObject({
      code: "UNSAFE_PATH",
    });
  });
});

describe("resolveReal and isWithin", () => {
  it("resolves a link loop to an error, not a hang", async () => {
    symlinkSync(join(repo, "b"), join(repo, "a"));
    symlinkSync(join(repo, "a"), join(repo, "b"));
    await expect(resolveReal(join(repo, "a"))).rejects.toThrow();
  });

  it("does not take a sibling with the same prefix for inside", () => {
    expect(isWithin("/a/repo", "/a/repo-evil/x")).toBe(false);
    expect(isWithin("/a/repo", "/a/repo/..x")).toBe(true);
    expect(isWithin("/a/repo", "/a")).toBe(false);
  });
});
