// The hook table: event -> input schema -> handler (the oclif pattern, STYLE.md). Handlers are imported
// lazily, so a hook process loads only its own event's code; they take their types from ./types.ts.
import type * as z from "zod/mini";
import type { Config } from "../config/schema.ts";
import {
  type HookEvent,
  type PostCompactInput,
  PostCompactInputSchema,
  type PostToolUseInput,
  PostToolUseInputSchema,
  type PreCompactInput,
  PreCompactInputSchema,
  type SessionEndInput,
  SessionEndInputSchema,
  type SessionStartInput,
  SessionStartInputSchema,
  type StopInput,
  StopInputSchema,
  type UserPromptSubmitInput,
  UserPromptSubmitInputSchema,
} from "./schemas.ts";
import type { HookDefinition, HookDeps, HookOutcome } from "./types.ts";

function defineHook<S extends z.ZodMiniType>(
  schema: () => S,
  handle: (input: z.output<S>, deps: HookDeps) => Promise<HookOutcome | null>,
  extra: Pick<HookDefinition, "timeoutMs" | "onTimeout"> = {},
): HookDefinition {
  return { schema, handle: handle as HookDefinition["handle"], ...extra };
}

function preCompactTimeoutOutcome(config: Config, limitMs: number): HookOutcome | null {
  const reason = `ctx could not save the context within ${limitMs} ms before compaction`;
  return config.hooks.blockCompactionOnSaveFailure
    ? {
        exitCode: 2,
        stderr: `${reason}; compaction blocked so nothing is lost (set hooks.blockCompactionOnSaveFailure to false to allow it)`,
      }
    : { stderr: reason };
}

// Handlers load on demand, so each hook process pays only for its own event's code (hook start-up budget).
const handleSessionStart = async (input: SessionStartInput, deps: HookDeps) =>
  (await import("./session-start.ts")).handleSessionStart(input, deps);
const handlePreCompact = async (input: PreCompactInput, deps: HookDeps) =>
  (await import("./pre-compact.ts")).handlePreCompact(input, deps);
const handlePostCompact = async (input: PostCompactInput, deps: HookDeps) =>
  (await import("./post-compact.ts")).handlePostCompact(input, deps);
const handleUserPromptSubmit = async (input: UserPromptSubmitInput, deps: HookDeps) =>
  (await import("./user-prompt-submit.ts")).handleUserPromptSubmit(input, deps);
// After every tool call: the rolling checkpoint, then the context guard (whose reply, when it speaks, is
// the hook's reply); store/guard/after-tool-call.ts, shared with the ctx_guard_tick MCP tool.
const handlePostToolUse = async (input: PostToolUseInput, deps: HookDeps): Promise<HookOutcome | null> => {
  const { afterToolCall, postToolUseHookOutput } = await import("../store/guard/after-tool-call.ts");
  const { reply, failures } = await afterToolCall(input, deps);
  const outcome: HookOutcome | null = reply === null ? null : { reply: postToolUseHookOutput(reply) };
  if (failures.length === 0) return outcome;
  return { ...outcome, stderr: `ctx hook: post-tool-use: ${failures.join("; ")}` };
};
// At the end of a turn: the rolling checkpoint; and when a tool call of the turn had no tick after it (an
// `mcp_tool` PostToolUse hook is skipped while ctx's server is not connected), the context guard's step too,
// so its saves and snapshots still happen once per turn. Stop carries no additionalContext: only the guard's
// line for the user (systemMessage) is passed on.
const handleStop = async (input: StopInput, deps: HookDeps): Promise<HookOutcome | null> => {
  const { checkpointTick } = await import("../store/snapshots/checkpoint-tick.ts");
  const { untickedToolCall } = await checkpointTick(input, deps, { findUntickedToolCall: true });
  if (!untickedToolCall) return null;
  // Claude Code runs Stop before the turn's last lines reach the transcript (seen with 2.1.330: the guard read
  // the turn's first reply): wait, bounded, for the last reply to land before measuring.
  const { awaitTranscriptText, lastReplyMarker } = await import("../store/transcript/await-tool-use.ts");
  const marker = lastReplyMarker(input.last_assistant_message);
  if (marker !== null) await awaitTranscriptText(input.transcript_path, marker, { timeoutMs: 1_000 });
  const { runContextGuard } = await import("../store/guard/context-guard.ts");
  const reply = await runContextGuard(input, deps);
  return reply?.systemMessage == null ? null : { reply: { systemMessage: reply.systemMessage } };
};
const handleSessionEnd = async (input: SessionEndInput, deps: HookDeps) =>
  (await import("./session-end.ts")).handleSessionEnd(input, deps);

export const HOOK_TABLE: Record<HookEvent, HookDefinition> = {
  "session-start": defineHook(SessionStartInputSchema, handleSessionStart),
  "session-end": defineHook(SessionEndInputSchema, handleSessionEnd),
  // Saving before a compaction may take longer on a huge transcript; running out of time is a failure to
  // save, which blocks the compaction when the config says so (the user loses nothing either way).
  "pre-compact": defineHook(PreCompactInputSchema, handlePreCompact, {
    timeoutMs: (config) => Math.max(config.hooks.handlerTimeoutMs, 30_000),
    onTimeout: (config, limitMs) => preCompactTimeoutOutcome(config, limitMs),
  }),
  "post-compact": defineHook(PostCompactInputSchema, handlePostCompact),
  "post-tool-use": defineHook(PostToolUseInputSchema, handlePostToolUse),
  "user-prompt-submit": defineHook(UserPromptSubmitInputSchema, handleUserPromptSubmit),
  stop: defineHook(StopInputSchema, handleStop),
};
