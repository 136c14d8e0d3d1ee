// The hooks Claude Code runs after every tool call (PostToolUse) and at the end of every turn (Stop), and their
// table. The every-call entry (src/bin/every-call.ts, built on its own into dist/every-call/) loads this and nothing
// of the other events, so these processes load a handful of files instead of the whole hook graph (DESIGN.md's
// post-tool-use budget); ./table.ts loads it lazily for the other ways in (`ctx hook` through commander, tests).
import { afterToolCall, postToolUseHookOutput } from "../store/guard/after-tool-call.ts";
import { runContextGuard } from "../store/guard/context-guard.ts";
import { awaitServerMeasurement, takeUserLine } from "../store/guard/tick-handoff.ts";
import type { GuardReply } from "../store/guard/types.ts";
import { checkpointTick } from "../store/snapshots/checkpoint-tick.ts";
import { awaitTranscriptText, lastReplyMarker } from "../store/transcript/await-tool-use.ts";
import { checkPostToolUseInput, checkStopInput } from "./every-call-input.ts";
import type { PostToolUseInput, StopInput } from "./schemas.ts";
import { type HookDeps, type HookOutcome, type HookTable, hookOf } from "./types.ts";

/** After every tool call: the rolling checkpoint, then the context guard (whose reply, when it speaks, is the
 *  hook's reply); store/guard/after-tool-call.ts, shared with the ctx_guard_tick MCP tool. */
export async function handlePostToolUse(input: PostToolUseInput, deps: HookDeps): Promise<HookOutcome | null> {
  const { reply, failures } = await afterToolCall(input, deps);
  const outcome: HookOutcome | null = reply === null ? null : { reply: postToolUseHookOutput(reply) };
  if (failures.length === 0) return outcome;
  return { ...outcome, stderr: `ctx hook: post-tool-use: ${failures.join("; ")}` };
}

/**
 * At the end of a turn: the rolling checkpoint; and when a tool call of the turn had no tick after it (an
 * `mcp_tool` PostToolUse hook is skipped while ctx's server is not connected), the context guard's step too,
 * so its saves and snapshots still happen once per turn. With the `mcp_tool` wiring the server measures each
 * call after its tick answered: Stop first waits (bounded) for a measurement under way, and measures itself
 * if that server is gone. Stop carries no additionalContext: only the guard's line for the user
 * (systemMessage) is passed on; a note for the model that no tick passed on stays for the next tick.
 */
export async function handleStop(input: StopInput, deps: HookDeps): Promise<HookOutcome | null> {
  const measured = await awaitServerMeasurement(deps.projectRoot, input.session_id);
  const { untickedToolCall } = await checkpointTick(input, deps, { findUntickedToolCall: true });
  const handedLine = takeUserLine(deps.projectRoot, input.session_id);
  const abandoned =
    measured === "abandoned"
      ? "ctx hook: stop: ctx serve did not finish measuring the last tool call; measured here"
      : null;
  let reply: GuardReply | null = null;
  if (untickedToolCall || abandoned !== null) {
    // Claude Code runs Stop before the turn's last lines reach the transcript (seen with 2.1.330: the guard read
    // the turn's first reply): wait, bounded, for the last reply to land before measuring.
    const marker = lastReplyMarker(input.last_assistant_message);
    if (marker !== null) await awaitTranscriptText(input.transcript_path, marker, { timeoutMs: 1_000 });
    reply = await runContextGuard(input, deps);
  }
  const systemMessage = reply?.systemMessage ?? handedLine;
  const outcome: HookOutcome | null = systemMessage === null ? null : { reply: { systemMessage } };
  return abandoned === null ? outcome : { ...outcome, stderr: abandoned };
}

export const EVERY_CALL_HOOKS: HookTable = {
  // Checked by hand, not by zod (./every-call-input.ts says why).
  "post-tool-use": hookOf(checkPostToolUseInput, handlePostToolUse),
  stop: hookOf(checkStopInput, handleStop),
};
