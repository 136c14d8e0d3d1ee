// The entry: checks the Node version before anything else loads, then hands over to ./main.ts (the program), or for
// a lean hook event (core/hooks/events.ts) to ./lean.ts, built on its own. It has no static import on purpose: on an older Node, an import of an API
// it lacks (e.g. `enableCompileCache`) fails at link time, before any code could say what is wrong. Keep this
// file to syntax old Nodes parse. The minimum and why: core/setup/node-minimum.ts (a test keeps MIN_NODE here equal).
declare const __CTX_LEAN_HOOK_NAMES__: string | undefined;
const MIN_NODE = "22.16";
const found = process.versions.node;
const [major = 0, minor = 0] = found.split(".").map(Number);
const [minMajor = 0, minMinor = 0] = MIN_NODE.split(".").map(Number);
if (major < minMajor || (major === minMajor && minor < minMinor) || typeof process.getBuiltinModule !== "function") {
  // Run from a clone, the repository's toolchain script fetches a Node that works (scripts/toolchain.sh).
  const { existsSync } = await import("node:fs");
  const toolchain = new URL("../scripts/toolchain.sh", import.meta.url);
  const fromClone = existsSync(toolchain) && existsSync(new URL("../.git", import.meta.url));
  process.stderr.write(
    `ctx: ctx needs Node >= ${MIN_NODE}, found ${found} (${process.execPath})\n` +
      (fromClone
        ? `hint: in this clone, run \`eval "$(bash scripts/toolchain.sh)"\` first (it puts a Node that works first on PATH)\n`
        : `hint: install Node ${MIN_NODE} or newer (https://nodejs.org/en/download, or \`nvm install 22\`) and put it first on PATH\n`),
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
