// Stop, at the end of every turn: the rolling checkpoint; and when a tool call of the turn had no tick after it (an
// `mcp_tool` PostToolUse hook is skipped while ctx's server is not connected), the context guard's step too, so its
// saves and snapshots still happen once per turn. With the `mcp_tool` wiring the server measures each call after its
// tick answered: Stop first waits (bounded) for a measurement under way, and measures itself if that server is gone.
// Stop carries no additionalContext: only the guard's line for the user (systemMessage) is passed on; a note for the
// model that no tick passed on stays for the next tick. A lean event (core/hooks/events.ts): it runs in the lean
// entry, src/bin/lean.ts.
import { checkpointTick } from "../../store/guard/checkpoint-tick.ts";
import { runContextGuard } from "../../store/guard/context-guard.ts";
import { awaitServerMeasurement, takeUserLine } from "../../store/guard/tick-handoff.ts";
import type { GuardReply } from "../../store/guard/types.ts";
import { awaitTranscriptText, lastReplyMarker } from "../../store/transcript/await-tool-use.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkStopInput } from "../runtime/schemas.compiled.ts";
import type { StopInput } from "../runtime/schemas.ts";
import { type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

export const hook = hookOf(compiledHookCheck(checkStopInput), (input, deps) => handleStop(input, deps));

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
