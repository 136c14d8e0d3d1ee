// The hook entries built on their own (tsup.config.ts), each into dist/<name>/: src/bin/ctx.ts imports
// `./<name>.ts`, and this plugin for the program's build leaves that import to Node, pointing at the other build's
// output, instead of bundling the entry's code into the program's chunks a second time. An entry built alone loads
// a handful of files holding only its events' code, where the program's shared graph would load twenty to forty
// chunks; each file costs a process a fraction of a millisecond (src/bin/every-call.ts; DESIGN.md's hook budgets).
//
// An entry may borrow modules it imports only on a rare path (the guard acting on a tier, a checkpoint due, a config
// to validate) from the program's build: built into the entry, each would split off the code it shares with the
// common path into more chunks that every process loads. A borrowed module is built as a program entry of its own
// (dist/borrowed/<name>.js) and the entry's `import()` of it points there. It runs on the program's copies of the
// modules it uses, so what crosses between the two is plain data and functions (no class identity, no module
// state): true of each one listed here.
import { basename, resolve } from "node:path";

export const OWN_ENTRIES = {
  /** `ctx hook post-tool-use` and `ctx hook stop`: after every tool call and every turn. */
  "every-call": {
    source: "src/bin/every-call.ts",
    borrowed: ["src/store/guard/guard-actions.ts", "src/store/context/operations.ts", "src/config/load.ts"],
  },
  /** `ctx hook session-start`: at every start, resume and compaction. */
  "session-start": {
    source: "src/bin/session-start.ts",
    borrowed: [
      "src/store/context/project-state.ts",
      "src/hooks/injection/context-injection.ts",
      "src/hooks/injection/injection-extras.ts",
      "src/hooks/injection/compaction-audit.ts",
      "src/config/load.ts",
    ],
  },
  /** `ctx hook pre-compact`: before every compaction. */
  "pre-compact": { source: "src/bin/pre-compact.ts", borrowed: ["src/config/load.ts"] },
  /** `ctx hook session-end`: at the end of every session. */
  "session-end": { source: "src/bin/session-end.ts", borrowed: ["src/config/load.ts"] },
} as const satisfies Record<string, { source: string; borrowed: readonly string[] }>;

export type OwnEntry = keyof typeof OWN_ENTRIES;

/** Where dist/ctx.js finds an entry's build, relative to itself. */
export const ownEntryOutput = (name: OwnEntry): string => `./${name}/${name}.js`;

/** A borrowed module's name in dist/borrowed/ (its file's name; the test checks they are unique). */
export const borrowedName = (source: string): string => basename(source, ".ts");

/** Every borrowed module, as the program build's extra entries: `borrowed/<name>` -> source. */
export function borrowedEntries(): Record<string, string> {
  const sources = new Set(Object.values(OWN_ENTRIES).flatMap((entry) => [...entry.borrowed]));
  return Object.fromEntries([...sources].map((source) => [`borrowed/${borrowedName(source)}`, source]));
}

interface PluginBuild {
  onResolve: (
    options: { filter: RegExp },
    callback: (args: {
      path: string;
      importer: string;
      kind: string;
      resolveDir: string;
    }) => { path: string; external: boolean } | undefined,
  ) => void;
}

/** The program's build: ctx.ts's `import("./<entry>.ts")` -> the entry's own build. */
export const ownEntriesPlugin = {
  name: "own-entries",
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^\.\/[\w-]+\.ts$/ }, (args) => {
      const name = args.path.slice(2, -3);
      if (!args.importer.endsWith("/src/bin/ctx.ts") || !(name in OWN_ENTRIES)) return undefined;
      return { path: ownEntryOutput(name as OwnEntry), external: true };
    });
  },
};

/** An entry's own build: its `import()` of a borrowed module -> dist/borrowed/<name>.js. */
export function borrowingPlugin(entry: OwnEntry) {
  const borrowed = new Map<string, string>(OWN_ENTRIES[entry].borrowed.map((source) => [resolve(source), source]));
  return {
    name: "borrowing",
    setup(build: PluginBuild) {
      build.onResolve({ filter: /\.ts$/ }, (args) => {
        const source = args.kind === "dynamic-import" ? borrowed.get(resolve(args.resolveDir, args.path)) : undefined;
        return source === undefined ? undefined : { path: `../borrowed/${borrowedName(source)}.js`, external: true };
      });
    },
  };
}
