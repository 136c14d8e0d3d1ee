// The lean events' definitions (core/hooks/events.ts rows with `lean: true`: Claude Code runs them after every tool
// call or turn), for the lean entry, src/bin/lean.ts, which is built on its own so that these processes load a few
// files and no zod (docs/performance.md). The type requires a loader for exactly the lean events.
import type { HOOK_EVENTS, HookEvent } from "../../core/hooks/events.ts";
import * as postToolUse from "../handlers/post-tool-use.hook.ts";
import * as stop from "../handlers/stop.hook.ts";
import type { HookModule } from "./table.ts";
import type { HookLoader } from "./types.ts";

type LeanEvent = { [E in HookEvent]: (typeof HOOK_EVENTS)[E] extends { lean: true } ? E : never }[HookEvent];

// Imported statically: the lean build makes this module and everything it imports one file (build/lean-entry.ts).
const LEAN_HOOKS: Record<LeanEvent, HookModule> = { "post-tool-use": postToolUse, stop };

/** The events the lean entry runs (its test checks they are the table's lean rows). */
export const LEAN_EVENTS = Object.keys(LEAN_HOOKS) as LeanEvent[];

export const loadLeanHook: HookLoader = async (event) =>
  Object.hasOwn(LEAN_HOOKS, event) ? LEAN_HOOKS[event as LeanEvent].hook : undefined;

export { runHookProcess } from "./process.ts";
