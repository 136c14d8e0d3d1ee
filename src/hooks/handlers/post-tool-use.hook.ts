// PostToolUse, after every tool call: the rolling checkpoint, then the context guard (whose reply, when it speaks,
// is the hook's reply); store/guard/after-tool-call.ts, shared with the ctx_guard_tick MCP tool. A lean event
// (core/hooks/events.ts): it runs in the lean entry, src/bin/lean.ts, so its input is checked without zod (by the checker compiled from its schema at build time).
import { afterToolCall, postToolUseHookOutput } from "../../store/guard/after-tool-call.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkPostToolUseInput } from "../runtime/schemas.compiled.ts";
import type { PostToolUseInput } from "../runtime/schemas.ts";
import { type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

export const hook = hookOf(compiledHookCheck(checkPostToolUseInput), (input, deps) => handlePostToolUse(input, deps));

export async function handlePostToolUse(input: PostToolUseInput, deps: HookDeps): Promise<HookOutcome | null> {
  const { reply, failures } = await afterToolCall(input, deps);
  const outcome: HookOutcome | null = reply === null ? null : { reply: postToolUseHookOutput(reply) };
  if (failures.length === 0) return outcome;
  return { ...outcome, stderr: `ctx hook: post-tool-use: ${failures.join("; ")}` };
}
