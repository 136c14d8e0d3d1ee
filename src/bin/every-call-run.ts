// The every-call hooks' process (./every-call.ts), loaded once the code cache is on.
import { EVERY_CALL_HOOKS } from "../hooks/handlers/post-tool-use.hook.ts";
import { runHookFastPath } from "./hook-fast-path.ts";

await runHookFastPath(process.argv[3], EVERY_CALL_HOOKS);
