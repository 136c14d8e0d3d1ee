// V8's code cache for ctx's own modules, kept with ctx's other private files: a few milliseconds off every hook
// process (measured in bench/hooks.bench.ts). It covers only modules loaded after it is on, so each entry turns it
// on before importing its bulk. Folders are made 0700 first (Node would make them 0755). Failure is harmless.
import { mkdirSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { join } from "node:path";
import { ctxHome } from "../config/paths.ts";

export function enableCtxCompileCache(env: NodeJS.ProcessEnv): void {
  try {
    const cacheDir = join(ctxHome(env), "cache", "node-compile");
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    enableCompileCache?.(cacheDir);
  } catch {
    // no cache: slower start, same behaviour
  }
}
