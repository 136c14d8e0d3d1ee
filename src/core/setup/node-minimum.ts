// The oldest Node ctx runs on, and why: 22.16 is the first official Node 22 whose SQLite has FTS5 (the session index's
// full-text search); node:sqlite itself needs no flag from 22.13, and process.getBuiltinModule (how the built output
// loads Node's own modules: build/builtin-imports.ts) arrived in 22.3. scripts/node-smoke.sh runs ctx on it (CI does,
// and on the newest LTS). package.json `engines` and src/bin/ctx.ts (which may import nothing) say the same; a test
// keeps the three equal.
export const MIN_NODE = "22.16";

/** Whether `version` ("22.16.0", "v24.1.0") is at least MIN_NODE. */
export function meetsMinimumNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split(".").map(Number);
  return major > minMajor || (major === minMajor && minor >= minMinor);
}
