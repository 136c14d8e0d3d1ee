import { chownSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../tests/helpers/ctx-error.ts";
import { ctxHome, findProjectRoot, searchProjectRoot } from "./paths.ts";

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

/** Another local user (only root can give a folder to one). */
const OTHER_ID = 4_242;

describe.skipIf(process.getuid?.() !== 0)("another user's .ctx or .git (run as root)", () => {
  /** <root>/shared holds another user's marker; <root>/shared/mine is the person's folder below it. */
  function sharedTree(marker: ".ctx" | ".git"): { root: string; shared: string; mine: string } {
    const root = tree();
    const shared = join(root, "shared");
    const mine = join(shared, "mine");
    mkdirSync(join(shared, marker), { recursive: true });
    mkdirSync(mine);
    chownSync(join(shared, marker), OTHER_ID, OTHER_ID);
    return { root, shared, mine };
  }

  it("is passed over, said once per process, and the search goes on upward", () => {
    const { root, shared, mine } = sharedTree(".ctx");
    const lines: string[] = [];
    const warn = (line: string) => lines.push(line);
    expect(findProjectRoot(mine, { HOME: "/nonexistent-home" }, { warn })).toBe(mine);
    mkdirSync(join(root, ".git"));
    expect(findProjectRoot(mine, { HOME: "/nonexistent-home" }, { warn })).toBe(root);
    expect(lines).toEqual([expect.stringContaining(`ignored ${join(shared, ".ctx")}: another user's`)]);
  });

  it("a .git of theirs is no marker either; one of root's or this user's is", () => {
    const { shared, mine } = sharedTree(".git");
    expect(searchProjectRoot(mine, { HOME: "/nonexistent-home" })).toEqual({
      root: mine,
      foreign: [join(shared, ".git")],
    });
    chownSync(join(shared, ".git"), 0, 0);
    expect(searchProjectRoot(mine, { HOME: "/nonexistent-home" })).toEqual({ root: shared, foreign: [] });
  });

  it("under sudo, the user who ran it owns their folders for root", () => {
    const { shared, mine } = sharedTree(".ctx");
    expect(searchProjectRoot(mine, { HOME: "/nonexistent-home", SUDO_UID: String(OTHER_ID) }).root).toBe(shared);
    expect(searchProjectRoot(mine, { HOME: "/nonexistent-home", SUDO_UID: "4242x" }).root).toBe(mine);
  });

  it("the project's own .ctx being theirs is refused, from the folder itself or CLAUDE_PROJECT_DIR", () => {
    const { shared } = sharedTree(".ctx");
    for (const run of [
      () => findProjectRoot(shared, { HOME: "/nonexistent-home" }),
      () => findProjectRoot("/elsewhere", { HOME: "/nonexistent-home", CLAUDE_PROJECT_DIR: shared }),
    ]) {
      const error = thrownCtxError(run);
      expect(error.code).toBe("UNSAFE_PATH");
      expect(error.message).toBe(
        `${join(shared, ".ctx")} belongs to another user (uid ${OTHER_ID}); ctx does not use it`,
      );
    }
  });

  it("a link as .ctx is still refused, whoever made it", () => {
    const { mine } = sharedTree(".git");
    symlinkSync(tree(), join(mine, ".ctx"));
    const error = thrownCtxError(() => findProjectRoot(mine, { HOME: "/x" }));
    expect(error.message).toMatch(/is a symbolic link/);
  });
});
