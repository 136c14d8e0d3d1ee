// The entry for the hooks Claude Code runs after every tool call and every turn (`ctx hook post-tool-use`,
// `ctx hook stop`), chosen by ./ctx.ts. It is built on its own into dist/hook/ (tsup.config.ts), so its modules
// are a handful of files holding only these events' code, not the dozens of chunks the whole program shares:
// each file loaded costs a process a fraction of a millisecond, and these processes run on every tool call
// (DESIGN.md: post-tool-use within 1.6x of `node -e 0`; bench/hooks.bench.ts). The code cache is turned on
// before the bulk loads, in one import, so that it is one file.
import { enableCtxCompileCache } from "./compile-cache.ts";

enableCtxCompileCache(process.env);
await import("./every-call-run.ts");
