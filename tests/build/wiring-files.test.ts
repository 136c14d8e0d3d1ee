// `pnpm build` writes the wiring derived from the hook table (build/wiring-files.ts): this repository's
// .claude/settings.json is what the code renders, and git does not track it (a new hook event changes no checked-in
// file). What it holds is checked in src/core/setup/self-wiring.test.ts; the plugin's hooks, written with its folder,
// in tests/build/plugin-folder.test.ts.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderBuiltWiringFiles } from "../../src/core/setup/built-wiring.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the wiring the build writes", () => {
  it("is what the code renders, for every file", () => {
    for (const [path, content] of Object.entries(renderBuiltWiringFiles())) {
      expect(readFileSync(join(ROOT, path), "utf8"), path).toBe(content);
    }
  });

  it("is ignored by git, so no commit carries it", () => {
    const paths = Object.keys(renderBuiltWiringFiles());
    const ignored = spawnSync("git", ["check-ignore", ...paths], { cwd: ROOT, encoding: "utf8" });
    expect(ignored.stdout.trim().split("\n").sort()).toEqual([...paths].sort());
    const tracked = spawnSync("git", ["ls-files", "--", ...paths], { cwd: ROOT, encoding: "utf8" });
    expect(tracked.stdout).toBe("");
  });
});
