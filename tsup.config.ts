import { defineConfig, type Options } from "tsup";

// The program: one ESM entry with code splitting, so `ctx hook …` loads only the hook chunks (no MCP SDK, no
// commander) and `ctx serve` loads the SDK lazily. Beside it, the lean entry (build/lean-entry.ts says why) is built
// on its own into dist/lean/. The version comes from package.json at build time.
import { builtinImportsPlugin } from "./build/builtin-imports.ts";
import { chunkGroupsPlugin } from "./build/chunk-groups.ts";
import { DOOR_ENTRY, DOOR_SOURCE, leanBuildPlugin, leanEntryPlugin } from "./build/lean-entry.ts";
import { spellingTablePlugin } from "./build/spelling-table.ts";
import pkg from "./package.json" with { type: "json" };
import { leanHookNames } from "./src/core/hooks/events.ts";

const common: Options = {
  format: ["esm"],
  target: "node22",
  platform: "node",
  splitting: true,
  sourcemap: true,
  treeshake: true,
  // Bundled (tree-shaken) rather than loaded from node_modules: importing the zod/mini package whole costs a hook
  // process many times its tree-shaken part (bench/run.ts hooks, importCostMs["zod/mini"]). Commander too, so that its
  // imports of node:util, node:child_process and node:fs become getBuiltinModule reads (every command loads it). The
  // MCP SDK stays external: only `ctx serve` loads it. @noble/hashes: its one SHA-256 module, not the package.
  // node-postgres (with its connection-string and .pgpass readers): a team search's process loaded its ~40 files from
  // node_modules on the way to connecting; bundled, its require()s of built-ins read through getBuiltinModule too.
  noExternal: [
    /^zod\/mini$/,
    /^@noble\/hashes\//,
    "stemmer",
    "@msgpack/msgpack",
    "lz4js",
    "fzstd",
    "commander",
    "pg",
    "pg-connection-string",
    "pgpass",
  ],
  // Keep `node:` on builtins: esbuild does not know `node:sqlite` and would emit a bare `sqlite` import.
  removeNodeProtocol: false,
  // The lean hook events' names, for src/bin/ctx.ts to route them without an import (a string: esbuild would put an
  // array in a chunk of its own).
  define: {
    __CTX_VERSION__: JSON.stringify(pkg.version),
    __CTX_LEAN_HOOK_NAMES__: JSON.stringify(leanHookNames().join(" ")),
  },
  // Built-ins through process.getBuiltinModule, not ESM imports (build/builtin-imports.ts says why).
  plugins: [builtinImportsPlugin],
};

export default defineConfig([
  {
    ...common,
    // index-worker: the sync's file reader thread (src/search/sync/content-reader.ts finds it next to the chunks).
    // rare-paths: the lean build's door into this one (build/lean-entry.ts).
    entry: { ctx: "src/bin/ctx.ts", "index-worker": "src/search/sync/content-worker.ts", [DOOR_ENTRY]: DOOR_SOURCE },
    banner: { js: "#!/usr/bin/env node" },
    // Everything but the lean build's and the page's folders (the builds run at once).
    clean: ["!lean/**", "!ui/**"],
    // The paths a person waits on, each by the modules it loads (build/chunk-groups.ts): each loads its code in a few
    // chunks, where esbuild alone would split it by which commands share it (bench/run.ts cli, bench/run.ts hooks).
    // The hot paths (first) split the groups between them; the others key only what no hot path loads and load the
    // hot groups they touch whole. Which goes where was measured, interleaved (docs/performance.md): each more hot
    // path splits the others' groups, so SessionStart, the tightest budget, shares its groups with few.
    esbuildPlugins: [
      spellingTablePlugin,
      leanEntryPlugin,
      chunkGroupsPlugin({
        // Small modules that nearly every path loads (each was a group of a few hundred bytes to 18 KB shared by
        // different sets of paths, so a file of its own on each): with main.ts's own, in one chunk.
        withMain: [
          "src/version.ts",
          "src/log.ts",
          "src/core/json/record.ts",
          "src/config/hooks-disabled.ts",
          "src/store/archive/archive-schedule.ts",
          "src/hooks/runtime/stdin.ts",
          "src/store/config/config-cache.ts",
          // Claude Code's folders: every hook and most commands.
          "src/config/claude-paths.ts",
        ],
        hot: {
          version: ["src/version.ts"],
          help: ["src/cli/program.ts", "src/log.ts"],
          search: ["src/cli/program.ts", "src/log.ts", "src/cli/commands/search.ts"],
          // After every assistant message (src/bin/main.ts), without commander.
          statusline: [
            "src/cli/statusline.ts",
            "src/config/paths.ts",
            "src/store/config/config-cache.ts",
            "src/hooks/runtime/stdin.ts",
          ],
          // SessionStart after a compaction: it re-injects the saved context (docs/performance.md budgets it).
          "session-start": ["src/hooks/runtime/run.ts", "src/hooks/handlers/session-start.hook.ts"],
          // The worker threads: each starts by loading its module's file, so its groups hold only what it runs (in a
          // group shared with the program, PreCompact's redaction thread loaded 15 files and zod before its first block).
          "redact-thread": ["src/store/snapshots/redact-thread.ts"],
          // SessionEnd: as another path it loaded SessionStart's groups whole (the audit, the rules, 173 KB).
          "session-end": [
            "src/hooks/runtime/run.ts",
            "src/hooks/handlers/session-end.hook.ts",
            "src/store/context/operations.ts",
            "src/store/context/project-state.ts",
          ],
        },
        others: {
          // A config read for the first time, by any process (store/config/config-cache.ts): its own chunks, so a hook
          // that reads it loads no command's code.
          config: ["src/config/load.ts"],
          // It loads most of SessionStart's groups anyway.
          status: [
            "src/cli/program.ts",
            "src/log.ts",
            "src/cli/commands/status.ts",
            "src/core/audit/report.ts",
            "src/core/snapshots/retention.ts",
            "src/store/audit/audit-store.ts",
            "src/store/context/project-state.ts",
            "src/store/snapshots/checkpoints.ts",
          ],
          // PreCompact (bench/run.ts hooks), with what it loads lazily.
          "pre-compact": [
            "src/hooks/runtime/run.ts",
            "src/hooks/handlers/pre-compact.hook.ts",
            "src/core/snapshots/retention.ts",
            "src/hooks/injection/context-injection.ts",
            "src/hooks/injection/injection-extras.ts",
            "src/store/context/operations.ts",
            "src/store/context/project-state.ts",
            "src/store/snapshots/snapshots.ts",
          ],
        },
      }),
    ],
  },
  {
    ...common,
    entry: { lean: "src/bin/lean.ts", "lean-run": "src/hooks/runtime/lean.ts" },
    outDir: "dist/lean",
    clean: true,
    esbuildPlugins: [spellingTablePlugin, leanBuildPlugin],
  },
  {
    // The `ctx ui` page's one script and one style sheet, for the browser (src/ui/assets.ts serves them): no Node
    // built-ins, nothing of the program's chunks, minified (the page's assets are measured: bench/run.ts ui).
    entry: { page: "src/ui/assets/page.ts", style: "src/ui/assets/page.css" },
    outDir: "dist/ui",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    minify: true,
    splitting: false,
    sourcemap: false,
    clean: true,
  },
]);
