// What `ctx hook <event>` loads in the program build (src/bin/main.ts, cli/commands/hook.ts): the process shell and
// the table's loader in one import, so one file to load (each module loaded by `import()` is a file of its own:
// build/chunk-groups.ts). The lean entry has its own loader (./lean.ts).
export { runHookProcess } from "./process.ts";
export { loadHook } from "./table.ts";
