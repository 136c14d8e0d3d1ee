// The entry for the hooks Claude Code runs after every tool call and every turn (`ctx hook post-tool-use`,
// `ctx hook stop`), chosen by ./ctx.ts and built on its own into dist/every-call/ (build/own-entries.ts says why:
// DESIGN.md wants post-tool-use within 1.6x of `node -e 0`; bench/hooks.bench.ts). The code cache is turned on
// before the bulk loads, in one import, so that it covers it.
import { enableCtxCompileCache } from "./compile-cache.ts";

enableCtxCompileCache(process.env);
await import("./every-call-run.ts");
