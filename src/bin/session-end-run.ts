// The session-end hook's process (./session-end.ts), loaded once the code cache is on.
import { SESSION_END_HOOKS } from "../hooks/handlers/session-end.hook.ts";
import { runHookFastPath } from "./hook-fast-path.ts";

await runHookFastPath(process.argv[3], SESSION_END_HOOKS);
