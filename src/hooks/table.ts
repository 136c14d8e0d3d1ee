// The hook table: event -> input schema -> handler (the oclif pattern, STYLE.md). Later issues plug
// their handlers in here; an event whose work has not been built yet validates its input and replies nothing.
import type * as z from "zod/mini";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../log.ts";
import {
  type HookEvent,
  PostToolUseInputSchema,
  PreCompactInputSchema,
  type SessionEndInput,
  SessionEndInputSchema,
  type SessionStartInput,
  SessionStartInputSchema,
  StopInputSchema,
  UserPromptSubmitInputSchema,
} from "./schemas.ts";

export interface HookDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  logger: Logger;
  /** The project the session works on (CLAUDE_PROJECT_DIR, else found from the input's cwd). */
  projectRoot: string;
  config: Config;
}

/** What a handler asks the process to do; null = exit 0, print nothing. */
export interface HookOutcome {
  /** The hook reply: an object is printed as JSON, a string as plain text. */
  reply?: Record<string, unknown> | string;
  /** 2 only where blocking is the feature (PreCompact whose state could not be saved). */
  exitCode?: 0 | 2;
  stderr?: string;
}

export interface HookDefinition<S extends z.ZodMiniType = z.ZodMiniType> {
  schema: S;
  handle: (input: z.output<S>, deps: HookDeps) => Promise<HookOutcome | null>;
}

function defineHook<S extends z.ZodMiniType>(
  schema: S,
  handle: (input: z.output<S>, deps: HookDeps) => Promise<HookOutcome | null>,
): HookDefinition {
  return { schema, handle: handle as HookDefinition["handle"] };
}

const replyNothing = async (): Promise<null> => null;

// Handlers load on demand, so each hook process pays only for its own event's code (hook start-up budget).
const handleSessionStart = async (input: SessionStartInput, deps: HookDeps) =>
  (await import("./session-start.ts")).handleSessionStart(input, deps);
const handleSessionEnd = async (input: SessionEndInput, deps: HookDeps) =>
  (await import("./session-end.ts")).handleSessionEnd(input, deps);

export const HOOK_TABLE: Record<HookEvent, HookDefinition> = {
  "session-start": defineHook(SessionStartInputSchema, handleSessionStart),
  "session-end": defineHook(SessionEndInputSchema, handleSessionEnd),
  "pre-compact": defineHook(PreCompactInputSchema, replyNothing),
  "post-tool-use": defineHook(PostToolUseInputSchema, replyNothing),
  "user-prompt-submit": defineHook(UserPromptSubmitInputSchema, replyNothing),
  stop: defineHook(StopInputSchema, replyNothing),
};
