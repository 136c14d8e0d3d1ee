// The entry for `ctx hook session-start`, chosen by ./ctx.ts and built on its own into dist/session-start/
// (build/own-entries.ts says why: DESIGN.md wants session-start within 2.5x of `node -e 0`). The code cache is
// turned on before the bulk loads, in one import, so that it covers it.
import { enableCtxCompileCache } from "./compile-cache.ts";

enableCtxCompileCache(process.env);
await import("./session-start-run.ts");
