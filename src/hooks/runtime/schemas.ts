// The stdin JSON of each Claude Code hook event (docs/claude-code-facts.md "Hook input"). Loose objects:
// Claude Code adds fields between versions, and unknown ones must pass. zod/mini keeps hook start-up lean,
// and each schema is built on first use: a hook process builds only its own event's.
import * as z from "zod/mini";
import { NO_CONTROL_CHARACTERS, sessionIdField, transcriptPathField } from "../../core/transcript/hook-fields.ts";

/** A schema built on first use (building zod objects at import would cost every hook process all of them). */
function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

const baseHookInputShape = lazy(() => ({
  session_id: sessionIdField(),
  transcript_path: transcriptPathField(),
  cwd: z.string().check(z.minLength(1), NO_CONTROL_CHARACTERS),
  hook_event_name: z.string(),
  permission_mode: z.optional(z.string()),
  prompt_id: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
}));

export const SessionStartInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    source: z.string(),
    model: z.optional(z.string()),
    session_title: z.optional(z.string()),
  }),
);
export type SessionStartInput = z.infer<ReturnType<typeof SessionStartInputSchema>>;

export const PreCompactInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    trigger: z.string(),
    custom_instructions: z.optional(z.nullable(z.string())),
  }),
);
export type PreCompactInput = z.infer<ReturnType<typeof PreCompactInputSchema>>;

export const PostCompactInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    trigger: z.optional(z.string()),
    compact_summary: z.optional(z.nullable(z.string())),
  }),
);
export type PostCompactInput = z.infer<ReturnType<typeof PostCompactInputSchema>>;

export const PostToolUseInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    tool_name: z.string(),
    tool_input: z.optional(z.unknown()),
    tool_response: z.optional(z.unknown()),
    tool_use_id: z.optional(z.string()),
    duration_ms: z.optional(z.number()),
  }),
);
export type PostToolUseInput = z.infer<ReturnType<typeof PostToolUseInputSchema>>;

export const UserPromptSubmitInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    prompt: z.string(),
  }),
);
export type UserPromptSubmitInput = z.infer<ReturnType<typeof UserPromptSubmitInputSchema>>;

export const StopInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    stop_hook_active: z.optional(z.boolean()),
    last_assistant_message: z.optional(z.nullable(z.string())),
  }),
);
export type StopInput = z.infer<ReturnType<typeof StopInputSchema>>;

export const SessionEndInputSchema = lazy(() =>
  z.looseObject({
    ...baseHookInputShape(),
    reason: z.optional(z.string()),
  }),
);
export type SessionEndInput = z.infer<ReturnType<typeof SessionEndInputSchema>>;
