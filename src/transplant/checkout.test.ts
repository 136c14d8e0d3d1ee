import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCheckout, parseGitRemotes, readGitCheckout } from "./checkout.ts";

describe("this machine's checkout of a team project", () => {
  it("reads a git config's remotes, normalised, origin first", () => {
    const config = [
      "[core]",
      "\turl = not-a-remote",
      '[remote "fork"]',
      "\turl = https://user:tok@GitHub.com/me/app.git",
      '[remote "origin"]',
      '\turl = "git@github.com:acme/app.git"',
      '[branch "main"]',
      "\tremote = origin",
    ].join("\n");
    expect(parseGitRemotes(config)).toEqual(["github.com/acme/app", "github.com/me/app"]);
  });

  it("finds a linked worktree's remotes in its main repository, and its own folder as the root", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-checkout-")));
    const main = join(base, "main");
    mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true });
    writeFileSync(join(main, ".git", "config"), '[remote "origin"]\n\turl = https://github.com/acme/app\n');
    writeFileSync(join(main, ".git", "worktrees", "wt", "commondir"), "../..\n");
    const worktree = join(base, "wt");
    mkdirSync(join(worktree, "packages", "web"), { recursive: true });
    writeFileSync(join(worktree, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    expect(await readGitCheckout(join(worktree, "packages"))).toEqual({
      root: worktree,
      remotes: ["github.com/acme/app"],
    });
    expect(await findCheckout("github.com/acme/app", "packages/web", [base, worktree])).toBe(worktree);
    // The project's folder must be there.
    expect(await findCheckout("github.com/acme/app", "packages/api", [worktree])).toBeNull();
    expect(await findCheckout("github.com/acme/other", "", [worktree])).toBeNull();
  });
});
