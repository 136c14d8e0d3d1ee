// A tsup plugin: every static import of a Node built-in in the output (`import { readFileSync } from 'node:fs'`)
// becomes a read of `process.getBuiltinModule` (Node >= 22.3, checked by src/bin/ctx.ts). An ESM import of a
// built-in builds its module namespace, which reads every export, lazy getters included: `node:fs` then loads
// fs/promises and the stream classes, and more for `node:child_process` and `node:util`, in every process (bench/run.ts
// hooks: importCostMs against builtinCostMs). Hook processes pay that on every tool call (docs/performance.md); getBuiltinModule hands over the module object
// with nothing loaded that is not used. One output line stays one line, so the source maps stay true.

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

/** The chunk's code with its built-in imports rewritten (exported for its test). */
export function rewriteBuiltinImports(code: string): string {
  return code
    .replace(NAMED, (_, names: string, name: string) => {
      const fields = names
        .split(",")
        .map((field) => field.trim())
        .filter((field) => field !== "")
        .map((field) => field.replace(/^([\w$]+) as ([\w$]+)$/, "$1: $2"));
      return `const { ${fields.join(", ")} } = ${builtin(name)};`;
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
