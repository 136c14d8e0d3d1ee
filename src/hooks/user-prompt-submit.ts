// UserPromptSubmit: the fallback for Claude Code dropping the SessionStart `compact` injection. After a
// compaction, the first prompt checks whether the injection's token is in the transcript; if it is not,
// the saved state is injected here, once. Cheap when nothing is pending: one small file read.
import { decideFallback, type Injection } from "../core/context/injection.ts";
import { readInjection, transcriptContains, writeInjection } from "../store/context/injection.ts";
import { readSessionState } from "../store/context/project-state.ts";
import { compactInjectionText } from "./context-injection.ts";
import { gatherInjectionExtras } from "./injection-extras.ts";
import type { UserPromptSubmitInput } from "./schemas.ts";
import type { HookDeps, HookOutcome } from "./types.ts";

export async function handleUserPromptSubmit(
  input: UserPromptSubmitInput,
  deps: HookDeps,
): Promise<HookOutcome | null> {
  const injection = await readInjection(deps.projectRoot);
  if (injection === null || injection.settled || injection.sessionId !== input.session_id) return null;
  const seen = await transcriptContains(input.transcript_path, injection.token);
  const decision = decideFallback(injection, input.session_id, seen);
  const now = deps.now();
  if (decision === "settle") {
    await writeInjection(deps.projectRoot, { ...injection, settled: true }, now);
    return null;
  }
  if (decision !== "inject") return null;
  const context = await injectionText(injection, input.session_id, deps);
  if (context === null) return null; // nothing to inject (yet): stay pending rather than claim it was delivered
  await writeInjection(
    deps.projectRoot,
    { ...injection, settled: true, injectedBy: "user-prompt-submit", injectedAt: now.toISOString() },
    now,
  );
  deps.logger.info("user-prompt-submit: the compact re-injection was not in the transcript; injecting it now");
  return { reply: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } } };
}

/** The text PreCompact rendered, else this session's saved state rendered now; null when neither exists. */
async function injectionText(injection: Injection, sessionId: string, deps: HookDeps): Promise<string | null> {
  const maxChars = deps.config.hooks.maxInjectChars;
  if (typeof injection.text === "string" && injection.text.length <= maxChars) return injection.text;
  const state = await readSessionState(deps.projectRoot, sessionId);
  return state === null ? null : compactInjectionText(state, injection, maxChars, await gatherInjectionExtras(deps));
}
