// build/chunk-groups.ts on a small import graph: what each group holds and which groups an entry imports. (That the
// built program keeps SessionStart's path in one chunk and `ctx --version` out of it: tests/e2e/hook-lean.test.ts and
// tests/e2e/cli-lean.test.ts.)
import { describe, expect, it } from "vitest";
import { ChunkGroupPlan } from "../../build/chunk-groups.ts";

const statics = (...paths: string[]) => paths.map((path) => ({ path, kind: "import-statement", original: path }));
const lazy = (path: string) => ({ path, kind: "dynamic-import", original: path });

const inputs = {
  "src/bin/main.ts": { bytes: 1, imports: [...statics("src/errors.ts"), lazy("src/hooks/runtime/process.ts")] },
  "src/errors.ts": { bytes: 1, imports: [] },
  "src/version.ts": { bytes: 1, imports: [] },
  "src/hooks/runtime/process.ts": {
    bytes: 1,
    imports: [...statics("src/errors.ts", "src/config/load.ts", "src/version.ts"), lazy("src/store/late.ts")],
  },
  "src/hooks/handlers/session-start.hook.ts": { bytes: 1, imports: statics("src/store/state.ts") },
  "src/config/load.ts": { bytes: 1, imports: statics("node_modules/zod/index.js") },
  "src/store/state.ts": { bytes: 1, imports: statics("src/config/load.ts") },
  "src/store/late.ts": { bytes: 1, imports: [] },
  "src/cli/commands/search.ts": { bytes: 1, imports: statics("src/config/load.ts") },
  "src/cli/commands/init.ts": { bytes: 1, imports: [] },
  "node_modules/zod/index.js": { bytes: 1, imports: [] },
};
const metafile = { inputs, outputs: {} };

describe("ChunkGroupPlan", () => {
  const plan = new ChunkGroupPlan(metafile, [
    { roots: ["src/bin/main.ts"] },
    {
      roots: ["src/hooks/runtime/process.ts", "src/hooks/handlers/session-start.hook.ts"],
      without: ["src/version.ts"],
    },
  ]);

  it("holds the roots' static closure: ctx's own files, no handler, no entry that runs on import, no lazy import", () => {
    expect(plan.members[0]).toEqual(["src/errors.ts"]);
    expect(plan.members[1]?.sort()).toEqual([
      "src/config/load.ts",
      "src/hooks/runtime/process.ts",
      "src/store/state.ts",
    ]);
  });

  it("leaves out a module an earlier group holds, and what `without` loads", () => {
    expect(plan.members[1]).not.toContain("src/errors.ts");
    expect(plan.members[1]).not.toContain("src/version.ts");
  });

  it("has an entry import each group it reaches a member of, and no other", () => {
    expect(plan.groupsOf("src/hooks/runtime/process.ts")).toEqual([0, 1]);
    expect(plan.groupsOf("src/hooks/handlers/session-start.hook.ts")).toEqual([1]);
    expect(plan.groupsOf("src/cli/commands/search.ts")).toEqual([1]);
    expect(plan.groupsOf("src/cli/commands/init.ts")).toEqual([]);
    expect(plan.groupsOf("src/version.ts")).toEqual([]);
    expect(plan.groupsOf("src/store/late.ts")).toEqual([]);
  });
});
