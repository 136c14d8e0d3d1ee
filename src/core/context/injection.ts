// The compact re-injection's bookkeeping (pure). PreCompact saves the state and leaves a pending
// injection; SessionStart `compact` injects it; because Claude Code has been seen to drop that
// injection (anthropics/claude-code#15174, #28305), UserPromptSubmit checks the transcript for the
// injection's token and, when it is missing, injects it itself, once.
import type { Injection } from "./injection-schema.ts";

export type { Injection } from "./injection-schema.ts";

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
