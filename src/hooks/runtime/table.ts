// Each hook event's definition (input check, handler, time limit), loaded by the event's name from
// ../handlers/<event>.hook.ts, so a hook process loads only its own event's code. The events themselves are
// core/hooks/events.ts's table; a test checks every row has its handler file and every handler file its row. The
// bundler turns the template import into one lazy chunk per handler file (any *.hook.ts under ../handlers/).
import type { HookEvent } from "../../core/hooks/events.ts";
import type { HookDefinition, HookLoader } from "./types.ts";

/** What a handler file exports. */
export interface HookModule {
  hook: HookDefinition;
}

export const loadHook: HookLoader = async (event: HookEvent) =>
  ((await import(`../handlers/${event}.hook.ts`)) as HookModule).hook;
