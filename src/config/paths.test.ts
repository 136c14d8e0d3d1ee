import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctxHome, findProjectRoot } from "./paths.ts";

function tree(): string {
  return mkdtempSync(join(tmpdir(), "ctx-paths-"));
}

describe("findProjectRoot", () => {
  it("takes CLAUDE_PROJECT_DIR first, since Claude Code's cwd follows `cd`", () => {
    expect(findProjectRoot("/somewhere/else", { CLAUDE_PROJECT_DIR: "/repo" })).toBe("/repo");
  });

  it("finds the nearest ancestor with .git or .ctx", () => {
    const root = tree();
    mkdirSync(join(root, "repo", ".git"), { recursive: true });
    mkdirSync(join(root, "repo", "src", "deep"), { recursive: true });
    expect(findProjectRoot(join(root, "repo", "src", "deep"), { HOME: root })).toBe(join(root, "repo"));
    mkdirSync(join(root, "repo", "src", ".ctx"));
    expect(findProjectRoot(join(root, "repo", "src", "deep"), { HOME: root })).toBe(join(root, "repo", "src"));
  });

  it("never takes HOME for a project because the global ~/.ctx lives there", () => {
    const home = tree();
    mkdirSync(join(home, ".ctx"));
    mkdirSync(join(home, "work", "newproj"), { recursive: true });
    const env = { HOME: home };
    expect(ctxHome(env)).toBe(join(home, ".ctx"));
    expect(findProjectRoot(join(home, "work", "newproj"), env)).toBe(join(home, "work", "newproj"));
  });

  it("without any marker, the folder itself", () => {
    const root = tree();
    expect(findProjectRoot(root, { HOME: "/nonexistent-home" })).toBe(root);
  });
});
