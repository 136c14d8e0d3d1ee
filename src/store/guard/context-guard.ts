// The context guard after every tool call (the PostToolUse hook, or the ctx_guard_tick MCP tool). Reads the
// context size from the transcript's tail (bounded, so flat in the transcript's size), steps the guard
// (core/guard/tiers.ts), keeps the per-session measurements, and only when a tier rises or a velocity alarm
// starts loads the actions (save, checkpoint, snapshot) and returns the note for Claude (additionalContext).
// Every other call costs a tail read and two tiny file operations.
import { compactedState, type GuardStep, stepGuard } from "../../core/guard/tiers.ts";
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
  const step = stepContextGuard(input, deps, options);
  if (step === null || step.notice === null) return null;
  const { actOnNotice } = await import("./guard-actions.ts");
  return actOnNotice(step.notice, step.state, input, deps);
}

/**
 * After a compaction (PostCompact): the session's guard figures say so, so that `ctx status`, `ctx_health` and the
 * status line stop showing the last tool call's figures from before it. Claude Code runs PostCompact before it writes
 * the compaction to the transcript, so the record comes from the hook (core/guard/tiers.ts compactedState), not from
 * the transcript. It never acts: nothing is saved or announced. False when there were no figures to correct.
 */
export function noteCompaction(
  input: { session_id: string; trigger?: string | undefined },
  deps: Pick<GuardDeps, "projectRoot" | "config" | "now">,
): boolean {
  if (!deps.config.guard.enabled) return false;
  const previous = readGuardState(deps.projectRoot, input.session_id);
  if (previous === null) return false;
  const at = deps.now().toISOString();
  return writeGuardState(deps.projectRoot, compactedState(previous, { at, trigger: input.trigger ?? null }));
}

/** One step of the guard on the transcript's tail, written to the session's guard file; null when off or not set up. */
function stepContextGuard(
  input: { session_id: string; transcript_path: string },
  deps: GuardDeps,
  options: { replyEnd?: number },
): GuardStep | null {
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
  return step;
}
