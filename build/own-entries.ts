// The hook entries built on their own (tsup.config.ts), each into dist/<name>/: src/bin/ctx.ts imports
// `./<name>.ts`, and this plugin for the program's build leaves that import to Node, pointing at the other build's
// output, instead of bundling the entry's code into the program's chunks a second time. An entry built alone loads
// a handful of files holding only its events' code, where the program's shared graph would load twenty to forty
// chunks; each file costs a process a fraction of a millisecond (src/bin/every-call.ts; DESIGN.md's hook budgets).
export const OWN_ENTRIES = {
  /** `ctx hook post-tool-use` and `ctx hook stop`: after every tool call and every turn. */
  "every-call": "src/bin/every-call.ts",
  /** `ctx hook session-start`: at every start, resume and compaction. */
  "session-start": "src/bin/session-start.ts",
} as const;

/** Where dist/ctx.js finds an entry's build, relative to itself. */
export const ownEntryOutput = (name: keyof typeof OWN_ENTRIES): string => `./${name}/${name}.js`;

export const ownEntriesPlugin = {
  name: "own-entries",
  setup(build: {
    onResolve: (
      options: { filter: RegExp },
      callback: (args: { path: string; importer: string }) => { path: string; external: boolean } | undefined,
    ) => void;
  }) {
    build.onResolve({ filter: /^\.\/[\w-]+\.ts$/ }, (args) => {
      const name = args.path.slice(2, -3);
      if (!args.importer.endsWith("/src/bin/ctx.ts") || !(name in OWN_ENTRIES)) return undefined;
      return { path: ownEntryOutput(name as keyof typeof OWN_ENTRIES), external: true };
    });
  },
};
