// The text SessionStart `compact` (and the UserPromptSubmit fallback) inject: the saved state rendered
// within Claude Code's additionalContext limit, carrying the injection's token so its arrival can be
// checked in the transcript.
import type { ContextState } from "../core/context-state.ts";
import type { Injection } from "../core/injection.ts";
import { renderRestoreText } from "../core/restore-text.ts";

export function compactInjectionText(state: ContextState, injection: Injection | null, maxChars: number): string {
  const token = injection?.token ?? null;
  const origin = injection?.snapshotId
    ? `snapshot ${injection.snapshotId}, saved just before this compaction`
    : "the state saved before this compaction";
  const tokenLine = token === null ? "" : `\n[${token}]`;
  const body = renderRestoreText(state, { mode: "summary", maxChars: maxChars - tokenLine.length, origin });
  return body + tokenLine;
}

/** The short "where you left off" for a new session in a project with saved context. */
export function startupInjectionText(state: ContextState, maxChars: number): string {
  return renderRestoreText(state, {
    mode: "selective",
    sections: ["task", "todos", "decisions", "preferences", "files"],
    maxChars,
    origin: "the previous session in this project (ctx restore shows more)",
  });
}
