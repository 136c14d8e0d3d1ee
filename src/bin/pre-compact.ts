// The entry for `ctx hook pre-compact`, chosen by ./ctx.ts and built on its own into dist/pre-compact/ (build/own-entries.ts says
// why: DESIGN.md wants it within 500 ms on a 10 MB transcript). The code cache is turned on before the bulk loads, in one import, so that it covers it.
import { enableCtxCompileCache } from "./compile-cache.ts";

enableCtxCompileCache(process.env);
await import("./pre-compact-run.ts");
