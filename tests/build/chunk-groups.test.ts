// build/chunk-groups.ts on a small import graph: what each group holds and which groups an entry imports. (That the
// built program loads SessionStart's path and the CLI's in a few chunks, and `ctx --version` none of the others:
// tests/e2e/hook-lean.test.ts and tests/e2e/cli-lean.test.ts.)
import { describe, expect, it } from "vitest";
import { ChunkGroupPlan } from "../../build/chunk-groups.ts";

const statics = (...paths: string[]) => paths.map((path) => ({ path, kind: "import-statement" }));
const lazy = (path: string) => ({ path, kind: "dynamic-import" });

const inputs = {
  "src/bin/main.ts": {
    imports: [...statics("src/errors.ts"), lazy("src/version.ts"), lazy("src/hooks/runtime/process.ts")],
  },
  "src/errors.ts": { imports: [] },
  "src/version.ts": { imports: [] },
  "src/hooks/runtime/process.ts": {
    imports: [...statics("src/errors.ts", "src/config/load.ts", "src/version.ts"), lazy("src/store/late.ts")],
  },
  "src/hooks/handlers/session-start.hook.ts": { imports: statics("src/store/state.ts") },
  "src/config/load.ts": { imports: statics("node_modules/zod/index.js", "src/config/schema.ts") },
  "src/config/schema.ts": { imports: [] },
  "src/store/state.ts": { imports: statics("src/config/load.ts") },
  "src/store/late.ts": { imports: statics("src/store/archive.ts") },
  "src/store/archive.ts": { imports: [] },
  "src/cli/commands/search.ts": { imports: statics("src/config/load.ts", "src/search/rank.ts") },
  "src/search/rank.ts": { imports: [] },
  "src/cli/commands/init.ts": { imports: statics("src/setup/init.ts") },
  "src/setup/init.ts": { imports: [] },
  "src/cli/commands/doctor.ts": { imports: statics("src/search/rank.ts") },
  "node_modules/zod/index.js": { imports: [] },
};

describe("ChunkGroupPlan", () => {
  const plan = new ChunkGroupPlan(
    { inputs },
    {
      version: ["src/version.ts"],
      search: ["src/cli/commands/search.ts"],
      "session-start": ["src/hooks/runtime/process.ts", "src/hooks/handlers/session-start.hook.ts"],
    },
  );
  const groups = Object.fromEntries(plan.groups.map(({ key, members }) => [key, members.sort()]));

  it("groups ctx's own modules by the hot paths that load them, main.ts's first", () => {
    expect(plan.groups[0]).toEqual({ key: "main", paths: [], members: ["src/errors.ts"] });
    expect(groups["version session-start"]).toEqual(["src/version.ts"]);
    expect(groups["search session-start"]).toEqual(["src/config/load.ts", "src/config/schema.ts"]);
    expect(groups.search).toEqual(["src/search/rank.ts"]);
    expect(groups["session-start"]).toEqual(["src/hooks/runtime/process.ts", "src/store/state.ts"]);
  });

  it("keeps the CLI's modules apart, in groups of their own", () => {
    expect(groups["cli:search"]).toEqual(["src/cli/commands/search.ts"]);
    expect(plan.groups.find(({ key }) => key === "cli:search")?.paths).toEqual(["search"]);
  });

  it("leaves out what no hot path loads (a lazy import off the paths), hook handlers, main.ts, packages", () => {
    const all = plan.groups.flatMap(({ members }) => members);
    for (const path of ["src/store/late.ts", "src/setup/init.ts", "src/hooks/handlers/session-start.hook.ts"])
      expect(all).not.toContain(path);
    expect(all).not.toContain("src/bin/main.ts");
    expect(all).not.toContain("node_modules/zod/index.js");
  });

  const indexOf = (wanted: string) => plan.groups.findIndex(({ key }) => key === wanted);
  const named = (entry: string) => plan.groupsOf(entry).map((index) => plan.groups[index]?.key);

  it("has a hot path's entry import exactly the groups of its path", () => {
    expect(named("src/cli/commands/search.ts")).toEqual(["search session-start", "cli:search", "search"]);
    expect(named("src/version.ts")).toEqual(["version session-start"]);
    expect(named("src/hooks/runtime/process.ts").sort()).toEqual(
      ["main", "version session-start", "search session-start", "session-start"].sort(),
    );
    expect(indexOf("main")).toBe(0);
  });

  it("has an entry off the paths import each group it reaches, and those its groups reach in turn", () => {
    expect(named("src/cli/commands/init.ts")).toEqual([]);
    expect(named("src/store/late.ts")).toEqual([]);
    // doctor reaches rank.ts only: its group holds no CLI module, so not search.ts and its config. The handler reaches
    // state.ts, whose group holds process.ts, which loads errors.ts (main's group) and version.ts.
    expect(named("src/cli/commands/doctor.ts")).toEqual(["search"]);
    expect(named("src/hooks/handlers/session-start.hook.ts").sort()).toEqual(
      ["main", "version session-start", "search session-start", "session-start"].sort(),
    );
  });

  it("leaves out a module that leaves no code (types only): its group would be an empty chunk", () => {
    const bytes = (paths: string[], size: number) =>
      Object.fromEntries(paths.map((path) => [path, { bytesInOutput: size }]));
    const withOutputs = new ChunkGroupPlan(
      {
        inputs,
        outputs: {
          "dist/a.js": { inputs: { ...bytes(Object.keys(inputs), 10), ...bytes(["src/search/rank.ts"], 0) } },
          "dist/b.js": { inputs: bytes(["src/config/schema.ts"], 0) },
        },
      },
      { search: ["src/cli/commands/search.ts"] },
    );
    const all = withOutputs.groups.flatMap(({ members }) => members);
    expect(all).not.toContain("src/search/rank.ts");
    expect(all).toContain("src/config/schema.ts"); // it has code in another output
  });

  it("puts `withMain`'s modules (and what they load) in main.ts's group, out of every other", () => {
    const withMain = new ChunkGroupPlan(
      { inputs },
      { version: ["src/version.ts"], search: ["src/cli/commands/search.ts"] },
      {},
      ["src/version.ts", "src/store/state.ts"],
    );
    expect(withMain.groups[0]?.members.sort()).toEqual(
      ["src/config/load.ts", "src/config/schema.ts", "src/errors.ts", "src/store/state.ts", "src/version.ts"].sort(),
    );
    const keyed = Object.fromEntries(withMain.groups.map(({ key, members }) => [key, members.sort()]));
    expect(keyed.search).toEqual(["src/search/rank.ts"]);
    expect(keyed.version).toBeUndefined();
  });

  it("keys by another path only the modules no hot path loads", () => {
    const withOthers = new ChunkGroupPlan(
      { inputs },
      { search: ["src/cli/commands/search.ts"] },
      { "session-end": ["src/hooks/runtime/process.ts", "src/store/late.ts"] },
    );
    const keyed = Object.fromEntries(withOthers.groups.map(({ key, members }) => [key, members.sort()]));
    // config/load.ts is the search path's too: keyed by it alone, so the hot path's groups are not split.
    expect(keyed.search).toEqual(["src/config/load.ts", "src/config/schema.ts", "src/search/rank.ts"]);
    expect(keyed["session-end"]).toEqual([
      "src/hooks/runtime/process.ts",
      "src/store/archive.ts",
      "src/store/late.ts",
      "src/version.ts",
    ]);
  });
});
