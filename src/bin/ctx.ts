// The entry: checks the Node version before anything else loads, then hands over to ./main.ts (the program), or for
// a lean hook event (core/hooks/events.ts) to ./lean.ts, built on its own. It has no static import on purpose: on an older Node, an import of an API
// it lacks (e.g. `enableCompileCache`) fails at link time, before any code could say what is wrong. Keep this
// file to syntax old Nodes parse. 22.3 is the first Node 22 with process.getBuiltinModule, through which the built output loads Node's own
// modules (build/builtin-imports.ts).
declare const __CTX_LEAN_HOOK_NAMES__: string | undefined;
const MIN_NODE = "22.3";
const found = process.versions.node;
if (Number.parseInt(found.split(".")[0] ?? "0", 10) < 22 || typeof process.getBuiltinModule !== "function") {
  process.stderr.write(
    `ctx: ctx needs Node >= ${MIN_NODE}, found ${found} (${process.execPath})\n` +
      `hint: install Node 22 or newer (https://nodejs.org/en/download, or \`nvm install 22\`) and put it first on PATH\n`,
  );
  process.exitCode = 1;
} else {
  const [command, event, ...more] = process.argv.slice(2);
  let lean = false;
  if (command === "hook" && event !== undefined && more.length === 0) {
    // Written in by the build from the events table (tsup.config.ts); from source, read from the table itself.
    const names =
      typeof __CTX_LEAN_HOOK_NAMES__ === "string"
        ? __CTX_LEAN_HOOK_NAMES__.split(" ")
        : (await import("../core/hooks/events.ts")).leanHookNames();
    lean = names.includes(event);
  }
  if (lean) await import("./lean.ts");
  else await import("./main.ts");
}
