// The entry for `ctx hook session-end`, chosen by ./ctx.ts and built on its own into dist/session-end/ (build/own-entries.ts says
// why: DESIGN.md wants it within 200 ms). The code cache is turned on before the bulk loads, in one import, so that it covers it.
import { enableCtxCompileCache } from "./compile-cache.ts";

enableCtxCompileCache(process.env);
await import("./session-end-run.ts");
