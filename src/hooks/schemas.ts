// The stdin JSON of each Claude Code hook event (reference/claude-code.md §1.3-1.4). Loose objects:
// Claude Code adds fields between versions, and unknown ones must pass. zod/mini keeps hook start-up lean.
import * as z from "zod/mini";

const BaseHookInputSchema = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  transcript_path: z.string(),
  cwd: z.string().check(z.minLength(1)),
  hook_event_name: z.string(),
  permission_mode: z.optional(z.string()),
  prompt_id: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
});

export const SessionStartInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  source: z.string(),
  model: z.optional(z.string()),
  session_title: z.optional(z.string()),
});
export type SessionStartInput = z.infer<typeof SessionStartInputSchema>;

export const PreCompactInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  trigger: z.string(),
  custom_instructions: z.optional(z.nullable(z.string())),
});
export type PreCompactInput = z.infer<typeof PreCompactInputSchema>;

export const PostCompactInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  trigger: z.optional(z.string()),
  compact_summary: z.optional(z.nullable(z.string())),
});
export type PostCompactInput = z.infer<typeof PostCompactInputSchema>;

export const PostToolUseInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  tool_name: z.string(),
  tool_input: z.optional(z.unknown()),
  tool_response: z.optional(z.unknown()),
  tool_use_id: z.optional(z.string()),
  duration_ms: z.optional(z.number()),
});
export type PostToolUseInput = z.infer<typeof PostToolUseInputSchema>;

export const UserPromptSubmitInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  prompt: z.string(),
});
export type UserPromptSubmitInput = z.infer<typeof UserPromptSubmitInputSchema>;

export const StopInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  stop_hook_active: z.optional(z.boolean()),
  last_assistant_message: z.optional(z.nullable(z.string())),
});
export type StopInput = z.infer<typeof StopInputSchema>;

export const SessionEndInputSchema = z.looseObject({
  ...BaseHookInputSchema.shape,
  reason: z.optional(z.string()),
});
export type SessionEndInput = z.infer<typeof SessionEndInputSchema>;

/** ctx's event names and Claude Code's own, mapped to the canonical kebab-case name. */
export const HOOK_EVENT_ALIASES = {
  "session-start": "session-start",
  SessionStart: "session-start",
  "pre-compact": "pre-compact",
  PreCompact: "pre-compact",
  "post-compact": "post-compact",
  PostCompact: "post-compact",
  "post-tool-use": "post-tool-use",
  PostToolUse: "post-tool-use",
  "user-prompt-submit": "user-prompt-submit",
  prompt: "user-prompt-submit",
  UserPromptSubmit: "user-prompt-submit",
  stop: "stop",
  Stop: "stop",
  "session-end": "session-end",
  SessionEnd: "session-end",
} as const;
export type HookEvent = (typeof HOOK_EVENT_ALIASES)[keyof typeof HOOK_EVENT_ALIASES];

/** Claude Code's name for each event, as `hookEventName` in replies and `hook_event_name` in inputs. */
export const CLAUDE_EVENT_NAMES: Record<HookEvent, string> = {
  "session-start": "SessionStart",
  "pre-compact": "PreCompact",
  "post-compact": "PostCompact",
  "post-tool-use": "PostToolUse",
  "user-prompt-submit": "UserPromptSubmit",
  stop: "Stop",
  "session-end": "SessionEnd",
};

export function resolveHookEvent(name: string): HookEvent | null {
  return Object.hasOwn(HOOK_EVENT_ALIASES, name) ? HOOK_EVENT_ALIASES[name as keyof typeof HOOK_EVENT_ALIASES] : null;
}
