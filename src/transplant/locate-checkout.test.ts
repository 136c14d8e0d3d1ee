import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { type CheckoutSearch, locateCheckout, refuseCheckoutQuestion } from "./locate-checkout.ts";

/** A git working tree at `dir` (its files only: nothing here runs git) with `remote` as origin. */
function gitCheckout(dir: string, remote: string): void {
  mkdirSync(join(dir, ".git"), { recursive: true });
  mkdirSync(join(dir, "packages", "web"), { recursive: true });
  writeFileSync(join(dir, ".git", "config"), `[remote "origin"]\n\turl = ${remote}\n`);
}

describe("this machine's checkout of a remote, or the caller's question", () => {
  let base: string;
  let asked: string[];
  let search: CheckoutSearch;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-locate-")));
    mkdirSync(join(base, "elsewhere"));
    asked = [];
    search = {
      remoteUrl: "github.com/acme/app",
      repoPath: "packages/web",
      project: "github.com/acme/app/packages/web",
      cwd: join(base, "elsewhere"),
      claudeDir: join(base, "no-claude"),
      askCheckout: async (project) => {
        asked.push(project);
        return "../clone";
      },
    };
  });

  it("asks only when none is found, and takes the answer relative to the folder asked from", async () => {
    gitCheckout(join(base, "clone"), "git@github.com:acme/app.git");
    expect(await locateCheckout(search)).toBe(join(base, "clone"));
    expect(asked).toEqual(["github.com/acme/app/packages/web"]);
    // From inside the checkout, nobody is asked.
    expect(await locateCheckout({ ...search, cwd: join(base, "clone", "packages") })).toBe(join(base, "clone"));
    expect(asked).toHaveLength(1);
  });

  it("refuses an answer that is no checkout of the remote, and no answer at all", async () => {
    gitCheckout(join(base, "clone"), "https://github.com/acme/other");
    const wrong = await rejectedCtxError(locateCheckout(search));
    expect(wrong.code).toBe("USAGE");
    expect(wrong.message).toBe(
      `${join(base, "clone")} is not a checkout of github.com/acme/app/packages/web (its remotes: github.com/acme/other)`,
    );
    for (const answer of [null, "  "]) {
      const none = await rejectedCtxError(locateCheckout({ ...search, askCheckout: async () => answer }));
      expect([none.code, none.message, none.hint]).toEqual([
        "USAGE",
        "no checkout given",
        "pass `--checkout <dir>`; nothing was written",
      ]);
    }
  });

  it("a caller that cannot ask gets the --checkout hint; a named folder is checked, never searched around", async () => {
    const refused = await rejectedCtxError(locateCheckout({ ...search, askCheckout: refuseCheckoutQuestion }));
    expect([refused.code, refused.message, refused.hint]).toEqual([
      "NOT_FOUND",
      "no checkout of github.com/acme/app/packages/web found on this machine",
      "clone it, or name the folder with `--checkout <dir>`; nothing was written",
    ]);
    gitCheckout(join(base, "clone"), "https://github.com/acme/app");
    const named = await rejectedCtxError(locateCheckout({ ...search, checkout: join(base, "elsewhere") }));
    expect(named.message).toContain("(it is not in a git repository)");
    expect(asked).toEqual([]);
  });
});
