// The context guard after every tool call (the PostToolUse hook, or the ctx_guard_tick MCP tool). Reads the
// context size from the transcript's tail (bounded, so flat in the transcript's size), steps the guard
// (core/guard/tiers.ts), keeps the per-session measurements, and only when a tier rises or a velocity alarm
// starts loads the actions (save, checkpoint, snapshot) and returns the note for Claude (additionalContext).
// Every other call costs a tail read and two tiny file operations.
import { stepGuard } from "../../core/guard/tiers.ts";
import {
  autoCompactSettingsFromEnv,
  autoCompactThreshold,
  inferWindowTokens,
  isEnvFlagOn,
  reportedWindowOf,
} from "../../core/guard/tokens.ts";
import { readContextTail } from "../transcript/tail.ts";
import { pruneGuardFiles, readGuardState, readStatusLineFigures, writeGuardState } from "./guard-store.ts";
import type { GuardDeps, GuardReply } from "./types.ts";

/**
 * Steps the guard for one tool call; the reply when it speaks, else null. `replyEnd`: where the line of the
 * reply that made the call ends (a measurement finished after later lines landed reads that reply, not theirs).
 */
export async function runContextGuard(
  input: { session_id: string; transcript_path: string },
  deps: GuardDeps,
  options: { replyEnd?: number } = {},
): Promise<GuardReply | null> {
  const settings = deps.config.guard;
  if (!settings.enabled) return null;
  const { reading } = readContextTail(
    input.transcript_path,
    options.replyEnd === undefined ? {} : { endOffset: options.replyEnd },
  );
  const previous = readGuardState(deps.projectRoot, input.session_id);
  const reported =
    settings.windowTokens > 0
      ? { windowTokens: null, model: null }
      : reportedWindowOf(readStatusLineFigures(deps.projectRoot, input.session_id));
  const windowTokens = inferWindowTokens({
    configured: settings.windowTokens,
    reported: reported.windowTokens,
    model: reported.model ?? reading?.model ?? null,
    usedTokens: Math.max(reading?.usedTokens ?? 0, previous?.usedTokens ?? 0),
    extendedDisabled: isEnvFlagOn(deps.env.CLAUDE_CODE_DISABLE_1M_CONTEXT),
  });
  const autoCompactTokens = autoCompactThreshold(
    windowTokens,
    autoCompactSettingsFromEnv(deps.env, settings.autoCompactBufferTokens),
  );
  const step = stepGuard(
    previous,
    { sessionId: input.session_id, at: deps.now().toISOString(), reading, windowTokens, autoCompactTokens },
    settings,
  );
  if (!writeGuardState(deps.projectRoot, step.state)) return null; // ctx is not set up in this project
  if (previous === null) pruneGuardFiles(deps.projectRoot);
  if (step.notice === null) return null;
  const { actOnNotice } = await import("./guard-actions.ts");
  return actOnNotice(step.notice, step.state, input, deps);
}
