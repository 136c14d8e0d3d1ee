// The entry: checks the Node version before anything else loads, then hands over to ./main.ts (or, for the
// hooks with an entry of their own, ./every-call.ts, ./session-start.ts, ./pre-compact.ts or ./session-end.ts). It has no static import on purpose: on an older Node, an import of an API
// it lacks (e.g. `enableCompileCache`) fails at link time, before any code could say what is wrong. Keep this
// file to syntax old Nodes parse. 22.3 is the first Node 22 with process.getBuiltinModule, through which the built output loads Node's own
// modules (build/builtin-imports.ts).
const MIN_NODE = "22.3";
// The hook events with an entry of their own (build/own-entries.ts), by the names Claude Code's settings use for
// them (src/hooks/runtime/schemas.ts has every alias; the others go through main).
const OWN_ENTRY = {
  "post-tool-use": "every-call",
  PostToolUse: "every-call",
  stop: "every-call",
  Stop: "every-call",
  "session-start": "session-start",
  SessionStart: "session-start",
  "pre-compact": "pre-compact",
  PreCompact: "pre-compact",
  "session-end": "session-end",
  SessionEnd: "session-end",
};
const found = process.versions.node;
if (Number.parseInt(found.split(".")[0] ?? "0", 10) < 22 || typeof process.getBuiltinModule !== "function") {
  process.stderr.write(
    `ctx: ctx needs Node >= ${MIN_NODE}, found ${found} (${process.execPath})\n` +
      `hint: install Node 22 or newer (https://nodejs.org/en/download, or \`nvm install 22\`) and put it first on PATH\n`,
  );
  process.exitCode = 1;
} else {
  const [command, event, ...more] = process.argv.slice(2);
  const own = command === "hook" && more.length === 0 ? OWN_ENTRY[event as keyof typeof OWN_ENTRY] : undefined;
  if (own === "every-call") await import("./every-call.ts");
  else if (own === "session-start") await import("./session-start.ts");
  else if (own === "pre-compact") await import("./pre-compact.ts");
  else if (own === "session-end") await import("./session-end.ts");
  else await import("./main.ts");
}
