// The lean entry: `ctx hook post-tool-use` and `ctx hook stop` (core/hooks/events.ts's `lean` rows), which Claude
// Code runs after every tool call and every turn. ./ctx.ts chooses it; it is built on its own into dist/lean/ (see
// tsup.config.ts) so that these processes load a few files and no zod (docs/performance.md, bench/run.ts hooks).
// The code cache is turned on before the bulk loads.
import { enableCtxCompileCache, runHookFastPath } from "./hook-fast-path.ts";

enableCtxCompileCache(process.env);
const { loadLeanHook, runHookProcess } = await import("../hooks/runtime/lean.ts");
await runHookFastPath(process.argv[3], { runHookProcess, loadHook: loadLeanHook });
