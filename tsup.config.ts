import { defineConfig, type Options } from "tsup";

// The program: one ESM entry with code splitting, so `ctx hook …` loads only the hook chunks (no MCP SDK, no
// commander) and `ctx serve` loads the SDK lazily. Beside it, each hook entry of build/own-entries.ts is built on
// its own into dist/<name>/, borrowing what it needs on rare paths from the program's (that file says why). The version comes from package.json at build time.
import { builtinImportsPlugin } from "./build/builtin-imports.ts";
import { borrowedEntries, borrowingPlugin, OWN_ENTRIES, type OwnEntry, ownEntriesPlugin } from "./build/own-entries.ts";
import pkg from "./package.json" with { type: "json" };

const common: Options = {
  format: ["esm"],
  target: "node22",
  platform: "node",
  splitting: true,
  sourcemap: true,
  treeshake: true,
  // Bundled (tree-shaken) rather than loaded from node_modules: importing the zod/mini package whole costs
  // ~45 ms per hook process, its tree-shaken part a fraction of that. The MCP SDK and commander stay
  // external: the hook path never loads them.
  noExternal: [/^zod\/mini$/, "@msgpack/msgpack", "lz4js", "fzstd"],
  // Keep `node:` on builtins: esbuild does not know `node:sqlite` and would emit a bare `sqlite` import.
  removeNodeProtocol: false,
  define: { __CTX_VERSION__: JSON.stringify(pkg.version) },
  // Built-ins through process.getBuiltinModule, not ESM imports (build/builtin-imports.ts says why).
  plugins: [builtinImportsPlugin],
};

const ownNames = Object.keys(OWN_ENTRIES) as OwnEntry[];

export default defineConfig([
  {
    ...common,
    // index-worker: the sync's file reader thread (src/search/sync/content-reader.ts finds it next to the chunks).
    // borrowed/*: modules the hook entries built on their own load from here, on their rare paths.
    entry: { ctx: "src/bin/ctx.ts", "index-worker": "src/search/sync/content-worker.ts", ...borrowedEntries() },
    banner: { js: "#!/usr/bin/env node" },
    // Everything but the other builds' folders (the builds run at once).
    clean: ownNames.map((name) => `!${name}/**`),
    esbuildPlugins: [ownEntriesPlugin],
  },
  ...ownNames.map((name) => ({
    ...common,
    entry: { [name]: OWN_ENTRIES[name].source },
    outDir: `dist/${name}`,
    clean: true,
    esbuildPlugins: [borrowingPlugin(name)],
  })),
]);
