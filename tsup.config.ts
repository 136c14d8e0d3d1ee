import { defineConfig } from "tsup";

// One ESM entry with code splitting: `ctx hook …` loads only the hook chunk (no MCP SDK, no commander),
// `ctx serve` loads the SDK lazily. The version comes from package.json at build time.
import { builtinImportsPlugin } from "./build/builtin-imports.ts";
import pkg from "./package.json" with { type: "json" };

export default defineConfig({
  // index-worker: the sync's file reader thread (src/search/sync/content-reader.ts finds it next to the chunks).
  entry: { ctx: "src/bin/ctx.ts", "index-worker": "src/search/sync/content-worker.ts" },
  format: ["esm"],
  target: "node22",
  platform: "node",
  splitting: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  banner: { js: "#!/usr/bin/env node" },
  // Bundled (tree-shaken) rather than loaded from node_modules: importing the zod/mini package whole costs
  // ~45 ms per hook process, its tree-shaken part a fraction of that. The MCP SDK and commander stay
  // external: the hook path never loads them.
  noExternal: [/^zod\/mini$/, "@msgpack/msgpack", "lz4js", "fzstd"],
  // Keep `node:` on builtins: esbuild does not know `node:sqlite` and would emit a bare `sqlite` import.
  removeNodeProtocol: false,
  define: { __CTX_VERSION__: JSON.stringify(pkg.version) },
  // Built-ins through process.getBuiltinModule, not ESM imports (build/builtin-imports.ts says why).
  plugins: [builtinImportsPlugin],
});
