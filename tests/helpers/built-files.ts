// What a built file of dist/ loads and holds, read from the files themselves: its static imports (what a process or a
// worker thread loads before the module runs) and the source modules esbuild marks in it (`// src/…`).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const STATIC_IMPORT = /^(?:import|export)\b[^;]*?from\s*["'](\.[^"']+)["'];?$|^import\s*["'](\.[^"']+)["'];?$/gm;

/** The files a module loads before it runs: itself and its static imports, transitively. */
export function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
    staticClosure(join(dirname(file), match[1] ?? match[2] ?? ""), seen);
  }
  return seen;
}

/** The source modules the built files hold (esbuild marks each with a `// src/…` line). */
export const sourcesOf = (files: Iterable<string>): string[] =>
  [...files].flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((match) => match[1] ?? ""),
  );
