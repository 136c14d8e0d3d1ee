import { describe, expect, it } from "vitest";
import { ContextDiffSchema, diffTrackedFiles } from "./diff.ts";
import type { FileAccess } from "./schema.ts";

const file = (path: string, contentHash: string | null, inProject = true): FileAccess => ({
  path,
  inProject,
  reads: 1,
  writes: 0,
  lastAccess: null,
  lastAction: "read",
  contentHash,
});

describe("diffTrackedFiles", () => {
  it("sorts saved files into modified, deleted, unchanged and untracked by their hash now", () => {
    const saved = [
      file("/p/b.ts", "sha256:b"),
      file("/p/a.ts", "sha256:a"),
      file("/p/gone.ts", "sha256:g"),
      file("/p/big.bin", null),
      file("/p/huge.log", "sha256:h"),
    ];
    const current = new Map<string, string | null>([
      ["/p/a.ts", "sha256:a2"],
      ["/p/b.ts", "sha256:b"],
      ["/p/gone.ts", null],
      ["/p/big.bin", "sha256:x"],
    ]);
    const diff = diffTrackedFiles(saved, current, []);
    expect(diff).toEqual({
      modified: ["/p/a.ts"],
      deleted: ["/p/gone.ts"],
      unchanged: ["/p/b.ts"],
      untracked: ["/p/big.bin", "/p/huge.log"],
      added: [],
    });
    expect(ContextDiffSchema.parse(diff)).toEqual(diff);
  });

  it("lists new files once, sorted, leaving out any the save already knew", () => {
    const diff = diffTrackedFiles([file("/p/a.ts", "sha256:a")], new Map([["/p/a.ts", "sha256:a"]]), [
      "/p/z.ts",
      "/p/a.ts",
      "/p/c.ts",
      "/p/z.ts",
    ]);
    expect(diff.added).toEqual(["/p/c.ts", "/p/z.ts"]);
  });

  it("ignores files outside the project and a path saved twice", () => {
    const diff = diffTrackedFiles(
      [file("/etc/hosts", "sha256:e", false), file("/p/a.ts", "sha256:a"), file("/p/a.ts", "sha256:a")],
      new Map([
        ["/etc/hosts", "sha256:changed"],
        ["/p/a.ts", "sha256:a"],
      ]),
      [],
    );
    expect(diff).toMatchObject({ modified: [], unchanged: ["/p/a.ts"] });
  });
});
