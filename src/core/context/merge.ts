// Carrying a session's context across compactions: a state extracted from the transcript after the
// last boundary does not see what was set before it (a todo list written two compactions ago, a plan),
// so the new extraction is merged onto the previously saved state of the same session.
import { CONTEXT_STATE_LIMITS, type ContextState, type FileAccess, type Statement } from "./schema.ts";

function mergeStatements(older: readonly Statement[], newer: readonly Statement[]): Statement[] {
  const seen = new Set(newer.map((s) => s.text.toLowerCase()));
  const kept = older.filter((s) => !seen.has(s.text.toLowerCase()));
  return [...kept, ...newer].slice(-CONTEXT_STATE_LIMITS.statements);
}

function mergeFiles(older: readonly FileAccess[], newer: readonly FileAccess[]): FileAccess[] {
  const byPath = new Map(older.map((f) => [f.path, f]));
  for (const file of newer) {
    const previous = byPath.get(file.path);
    byPath.delete(file.path); // re-inserted last: the newest access goes last
    byPath.set(
      file.path,
      previous === undefined
        ? file
        : { ...file, reads: previous.reads + file.reads, writes: previous.writes + file.writes },
    );
  }
  return [...byPath.values()].slice(-CONTEXT_STATE_LIMITS.files);
}

/**
 * `next` extracted since the last boundary, merged onto `previous` (the saved state). Only the same session
 * merges; the newer side wins wherever it has something to say.
 */
export function mergeContextStates(previous: ContextState | null, next: ContextState): ContextState {
  if (previous === null || previous.sessionId !== next.sessionId) return next;
  // The same segment (no compaction between the two extractions) re-extracted: `next` already counts
  // every access since the boundary, so adding `previous` would double the counts.
  const sameSegment =
    (previous.session.lastCompaction?.timestamp ?? null) === (next.session.lastCompaction?.timestamp ?? null);
  return {
    ...next,
    // Claude Code writes a session's title entries where they were made, often before the last boundary: the title
    // carries across compactions like the rest (the SessionEnd breadcrumb had none after one).
    session: { ...next.session, title: next.session.title ?? previous.session.title },
    todos: next.todos ?? previous.todos,
    plan: next.plan ?? previous.plan,
    decisions: mergeStatements(previous.decisions, next.decisions),
    preferences: mergeStatements(previous.preferences, next.preferences),
    files: sameSegment ? next.files : mergeFiles(previous.files, next.files),
  };
}
