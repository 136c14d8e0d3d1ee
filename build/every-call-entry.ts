// An esbuild plugin for the program's build (tsup.config.ts): src/bin/ctx.ts imports the every-call entry
// (`./every-call.ts`), which the other build writes to dist/hook/every-call.js. The import is left to Node,
// pointing there, instead of bundling the entry's code into the program's chunks a second time.
export const EVERY_CALL_OUTPUT = "./hook/every-call.js";

export const everyCallEntryPlugin = {
  name: "every-call-entry",
  setup(build: {
    onResolve: (
      options: { filter: RegExp },
      callback: (args: { path: string; importer: string }) => { path: string; external: boolean } | undefined,
    ) => void;
  }) {
    build.onResolve({ filter: /^\.\/every-call\.ts$/ }, (args) =>
      args.importer.endsWith("/src/bin/ctx.ts") ? { path: EVERY_CALL_OUTPUT, external: true } : undefined,
    );
  },
};
