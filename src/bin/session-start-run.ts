// The SessionStart hook's process (./session-start.ts), loaded once the code cache is on.
import { SESSION_START_HOOKS } from "../hooks/handlers/session-start.hook.ts";
import { runHookFastPath } from "./hook-fast-path.ts";

await runHookFastPath(process.argv[3], SESSION_START_HOOKS);
