// The compact re-injection's bookkeeping (pure). PreCompact saves the state and leaves a pending
// injection; SessionStart `compact` injects it; because Claude Code has been seen to drop that
// injection (anthropics/claude-code#15174, #28305), UserPromptSubmit checks the transcript for the
// injection's token and, when it is missing, injects it itself, once.
import * as z from "zod/mini";

export const InjectionSchema = z.object({
  sessionId: z.string(),
  snapshotId: z.nullable(z.string()),
  /** A unique line in the injected text, searched for in the transcript to see whether it arrived. */
  token: z.string(),
  createdAt: z.string(),
  injectedBy: z.nullable(z.enum(["session-start", "user-prompt-submit"])),
  injectedAt: z.nullable(z.string()),
  /** The token was seen in the transcript (or the fallback already injected): nothing more to do. */
  settled: z.boolean(),
  /** The re-injection rendered at PreCompact, so SessionStart only reads this small file (hook budget). */
  text: z.optional(z.nullable(z.string())),
  /**
   * The compaction audit's lost items reached the model (led the SessionStart text, or came with the first
   * prompt after it: Claude Code 2.1.330 runs SessionStart `compact` before the summary exists).
   */
  lostInjected: z.optional(z.boolean()),
});
export type Injection = z.infer<typeof InjectionSchema>;

export function newInjection(sessionId: string, snapshotId: string | null, now: Date): Injection {
  return {
    sessionId,
    snapshotId,
    token: `ctx-restore:${snapshotId ?? now.getTime().toString(36)}`,
    createdAt: now.toISOString(),
    injectedBy: null,
    injectedAt: null,
    settled: false,
  };
}

export type FallbackDecision = "none" | "settle" | "inject";

/**
 * On a prompt: nothing pending for this session → none; the token is in the transcript → settle;
 * otherwise → inject (the fallback runs once: after it, the injection is settled).
 */
export function decideFallback(
  injection: Injection | null,
  sessionId: string,
  tokenInTranscript: boolean,
): FallbackDecision {
  if (injection === null || injection.settled || injection.sessionId !== sessionId) return "none";
  return tokenInTranscript ? "settle" : "inject";
}
