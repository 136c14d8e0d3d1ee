// The hook table: event -> input schema -> handler (the oclif pattern, STYLE.md). Handlers are imported
// lazily, so a hook process loads only its own event's code; they take their types from ./types.ts.
import { defineHook } from "./define-hook.ts";
import type { HookEvent } from "./events.ts";
import { PRE_COMPACT_LIMITS } from "./pre-compact-limits.ts";
import {
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
import type { HookDefinition, HookDeps } from "./types.ts";

// Handlers load on demand, so each hook process pays only for its own event's code (hook start-up budget).
const handleSessionStart = async (input: SessionStartInput, deps: HookDeps) =>
  (await import("../handlers/session-start.hook.ts")).handleSessionStart(input, deps);
const handlePreCompact = async (input: PreCompactInput, deps: HookDeps) =>
  (await import("../handlers/pre-compact.hook.ts")).handlePreCompact(input, deps);
const handlePostCompact = async (input: PostCompactInput, deps: HookDeps) =>
  (await import("../handlers/post-compact.hook.ts")).handlePostCompact(input, deps);
const handleUserPromptSubmit = async (input: UserPromptSubmitInput, deps: HookDeps) =>
  (await import("../handlers/user-prompt-submit.hook.ts")).handleUserPromptSubmit(input, deps);
// After every tool call and every turn: ../handlers/post-tool-use.hook.ts (which src/bin/every-call.ts loads on its own).
const handlePostToolUse = async (input: PostToolUseInput, deps: HookDeps) =>
  (await import("../handlers/post-tool-use.hook.ts")).handlePostToolUse(input, deps);
const handleStop = async (input: StopInput, deps: HookDeps) =>
  (await import("../handlers/post-tool-use.hook.ts")).handleStop(input, deps);
const handleSessionEnd = async (input: SessionEndInput, deps: HookDeps) =>
  (await import("../handlers/session-end.hook.ts")).handleSessionEnd(input, deps);

export const HOOK_TABLE: Record<HookEvent, HookDefinition> = {
  "session-start": defineHook(SessionStartInputSchema, handleSessionStart),
  "session-end": defineHook(SessionEndInputSchema, handleSessionEnd),
  "pre-compact": defineHook(PreCompactInputSchema, handlePreCompact, PRE_COMPACT_LIMITS),
  "post-compact": defineHook(PostCompactInputSchema, handlePostCompact),
  "post-tool-use": defineHook(PostToolUseInputSchema, handlePostToolUse),
  "user-prompt-submit": defineHook(UserPromptSubmitInputSchema, handleUserPromptSubmit),
  stop: defineHook(StopInputSchema, handleStop),
};
