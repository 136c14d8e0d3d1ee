// The pre-compact hook's process (./pre-compact.ts), loaded once the code cache is on.
import { PRE_COMPACT_HOOKS } from "../hooks/handlers/pre-compact.hook.ts";
import { runHookFastPath } from "./hook-fast-path.ts";

await runHookFastPath(process.argv[3], PRE_COMPACT_HOOKS);
