// An empty but valid context state for tests that build their own on top of it.
import type { ContextState } from "../../src/core/context/schema.ts";
import { SKIP_REASONS } from "../../src/core/transcript/entries.ts";

export function emptyContextState(sessionId = "s1"): ContextState {
  return {
    version: 1,
    sessionId,
    projectRoot: "/repo",
    transcriptPath: "/t.jsonl",
    extractedAt: "2026-11-22T10:00:00.000Z",
    conversation: [],
    conversationOmitted: 0,
    contextTokens: null,
    todos: null,
    plan: null,
    decisions: [],
    preferences: [],
    files: [],
    tools: { calls: {}, total: 0, failures: [] },
    session: {
      id: sessionId,
      title: null,
      firstTimestamp: null,
      lastTimestamp: null,
      userMessages: 0,
      assistantMessages: 0,
      compactions: 0,
      lastCompaction: null,
      model: null,
      cwd: null,
      gitBranch: null,
      claudeCodeVersion: null,
    },
    skipped: Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as ContextState["skipped"],
  };
}
