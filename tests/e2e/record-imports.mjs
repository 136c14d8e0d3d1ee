// Preloaded with `node --import` by hook-lean.test.ts: records every module URL the process resolves, and the
// public built-ins it loaded however it loaded them (`builtin:crypto`, from process.moduleLoadList), and writes the
// list to $CTX_RECORD_IMPORTS at exit.
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";

const seen = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    seen.add(result.url);
    return result;
  },
});
process.on("exit", () => {
  for (const entry of process.moduleLoadList) {
    const name = /^NativeModule ([a-z_/]+)$/.exec(entry)?.[1];
    if (name !== undefined && !name.startsWith("internal/")) seen.add(`builtin:${name}`);
  }
  writeFileSync(process.env.CTX_RECORD_IMPORTS, [...seen].join("\n"));
});
