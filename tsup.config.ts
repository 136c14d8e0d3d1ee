import { defineConfig, type Options } from "tsup";

// Two builds. The program: one ESM entry with code splitting, so `ctx hook …` loads only the hook chunks (no
// MCP SDK, no commander) and `ctx serve` loads the SDK lazily. The every-call hooks (src/bin/every-call.ts):
// built on their own into dist/hook/, so that the processes Claude Code starts after every tool call load a few
// files, not the program's shared chunks (src/bin/every-call.ts says why). The version comes from package.json.
import { builtinImportsPlugin } from "./build/builtin-imports.ts";
import { everyCallEntryPlugin } from "./build/every-call-entry.ts";
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

export default defineConfig([
  {
    ...common,
    // index-worker: the sync's file reader thread (src/search/sync/content-reader.ts finds it next to the chunks).
    entry: { ctx: "src/bin/ctx.ts", "index-worker": "src/search/sync/content-worker.ts" },
    banner: { js: "#!/usr/bin/env node" },
    // Everything but the other build's folder (both builds run at once).
    clean: ["!hook/**"],
    // ctx.ts's import of the every-call entry points at the other build's output.
    esbuildPlugins: [everyCallEntryPlugin],
  },
  { ...common, entry: { "every-call": "src/bin/every-call.ts" }, outDir: "dist/hook", clean: true },
]);
