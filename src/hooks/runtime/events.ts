// The hook events by name: ctx's own and Claude Code's. Kept apart from ./schemas.ts (zod), so that a hook
// process that validates its input by hand (./every-call-input.ts) loads no zod at all.
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
