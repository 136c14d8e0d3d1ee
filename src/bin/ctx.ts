// The entry: checks the Node version before anything else loads, then hands over to ./main.ts. It has no
// static import on purpose: on an older Node, an import of an API it lacks (e.g. `enableCompileCache`)
// fails at link time, before any code could say what is wrong. Keep this file to syntax old Nodes parse.
const MIN_NODE_MAJOR = 22;
const found = process.versions.node;
if (Number.parseInt(found.split(".")[0] ?? "0", 10) < MIN_NODE_MAJOR) {
  process.stderr.write(
    `ctx: ctx needs Node >= ${MIN_NODE_MAJOR}, found ${found} (${process.execPath})\n` +
      `hint: install Node ${MIN_NODE_MAJOR} or newer (https://nodejs.org/en/download, or \`nvm install ${MIN_NODE_MAJOR}\`) and put it first on PATH\n`,
  );
  process.exitCode = 1;
} else {
  await import("./main.ts");
}
