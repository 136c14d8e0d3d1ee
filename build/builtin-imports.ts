// A tsup plugin: every static import of a Node built-in in the output (`import { readFileSync } from 'node:fs'`)
// becomes a read of `process.getBuiltinModule` (Node >= 22.3; the minimum ctx checks, src/bin/ctx.ts, is higher). An ESM import of a
// built-in builds its module namespace, which reads every export, lazy getters included: `node:fs` then loads
// fs/promises and the stream classes, and more for `node:child_process` and `node:util`, in every process (bench/run.ts
// hooks: importCostMs against builtinCostMs). Hook processes pay that on every tool call (docs/performance.md); getBuiltinModule hands over the module object
// with nothing loaded that is not used. One output line stays one line, so the source maps stay true.

import { isBuiltin } from "node:module";

// esbuild prints double quotes, rollup (tsup's tree-shaking pass) single ones.
const NAMED = /^import \{([^}]*)\} from ["'](node:[a-z_/]+)["'];$/gm;
const NAMESPACE = /^import \* as ([\w$]+) from ["'](node:[a-z_/]+)["'];$/gm;
const DEFAULT = /^import ([\w$]+) from ["'](node:[a-z_/]+)["'];$/gm;
const BARE = /^import ["'](node:[a-z_/]+)["'];$/gm;

const builtin = (name: string) => `process.getBuiltinModule(${JSON.stringify(name)})`;

/**
 * A whole-module import (`import childProcess from 'node:child_process'`, bundled commander's) becomes a proxy that
 * loads the module at its first use: the module object is only ever read for its properties, and loading
 * node:child_process at start-up loads net, dgram and the stream classes for a spawn that `ctx status` never makes.
 * `process` from node:process is the global itself (a `const process` would shadow it).
 */
const whole = (local: string, name: string) =>
  local === "process" && name === "node:process"
    ? ""
    : `const ${local} = new Proxy({}, { get: (_, key) => ${builtin(name)}[key] });`;

/**
 * Built-ins whose loading costs a process more than their first use is worth waiting for: node:fs/promises loads
 * readline and the stream classes, node:crypto every cipher and key module, node:child_process net and dgram
 * (bench/run.ts hooks: builtinCostMs). A function imported from one becomes a small function that loads the module at
 * its first call; ctx imports only functions from them (plus fs/promises' `constants`, read at once).
 */
const LAZY_MODULES = new Set(["node:fs/promises", "node:crypto", "node:child_process"]);
const EAGER_VALUES = new Set(["constants"]);

/**
 * A bundled CommonJS package's `require` of a built-in (node-postgres's `require('net')`): in an ESM chunk esbuild
 * prints it as a call of its `__require` shim, which has no `require` to call there and throws. It becomes the same
 * getBuiltinModule read; a require of anything else (an optional package that is not installed, read in a `try`) is
 * left to the shim.
 */
const REQUIRE = /\b__require\d*\(["']((?:node:)?[a-z_/]+)["']\)/g;

/** The chunk's code with its built-in imports rewritten (exported for its test). */
export function rewriteBuiltinImports(code: string): string {
  return code
    .replace(REQUIRE, (call: string, name: string) => (isBuiltin(name) ? builtin(name) : call))
    .replace(NAMED, (_, names: string, name: string) => {
      const fields = names
        .split(",")
        .map((field) => field.trim())
        .filter((field) => field !== "")
        .map((field) => {
          const [imported, local = imported] = field.split(/\s+as\s+/) as [string, string?];
          return { imported, local };
        });
      const eager = fields.filter(({ imported }) => !LAZY_MODULES.has(name) || EAGER_VALUES.has(imported));
      const lazy = fields.filter((field) => !eager.includes(field));
      const parts = lazy.map(
        ({ imported, local }) =>
          `const ${local} = function (...args) { return ${builtin(name)}.${imported}.apply(this, args); };`,
      );
      if (eager.length > 0) {
        const destructured = eager.map(({ imported, local }) =>
          imported === local ? imported : `${imported}: ${local}`,
        );
        parts.unshift(`const { ${destructured.join(", ")} } = ${builtin(name)};`);
      }
      return parts.join(" ");
    })
    .replace(NAMESPACE, (_, local: string, name: string) => whole(local, name))
    .replace(DEFAULT, (_, local: string, name: string) => whole(local, name))
    .replace(BARE, "");
}

export const builtinImportsPlugin = {
  name: "builtin-imports",
  renderChunk(code: string, chunk: { path: string }) {
    if (!chunk.path.endsWith(".js")) return undefined;
    const rewritten = rewriteBuiltinImports(code);
    return rewritten === code ? undefined : { code: rewritten };
  },
};
