// The suite's own tools can fail: a listing sees a mode change, and the unprivileged runner is not root.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canRunUnprivileged, listTree, makeWorld, runCtxIn, treeChanges } from "./harness.ts";

describe("the adversarial harness", () => {
  it("a tree listing shows a folder's mode change and a file's new bytes", () => {
    const world = makeWorld("current", "harness");
    try {
      writeFileSync(join(world.repo, "a.txt"), "one");
      const before = listTree(world.base);
      chmodSync(world.repo, 0o700);
      writeFileSync(join(world.repo, "a.txt"), "two");
      const changes = treeChanges(before, listTree(world.base));
      expect(changes.some((line) => line.startsWith("+ d 0700") && line.endsWith(" repo"))).toBe(true);
      expect(changes.filter((line) => line.includes("repo/a.txt"))).toHaveLength(2);
    } finally {
      world.cleanup();
    }
  });

  it.runIf(canRunUnprivileged)("the unprivileged runner runs ctx as uid 65534 in a world it owns", async () => {
    const world = makeWorld("unprivileged", "harness");
    try {
      const result = await runCtxIn(world, ["--version"]);
      expect(result.code).toBe(0);
      expect(listTree(world.base)[0]).toMatch(/^d 0700 65534:65534 \.$/);
    } finally {
      world.cleanup();
    }
  });
});
