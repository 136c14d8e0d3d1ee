import { describe, expect, it } from "vitest";
import { emptyContextState } from "../../../tests/helpers/context-state.ts";
import { RESTORE_SECTIONS, renderRestoreText } from "./restore-text.ts";
import { type ContextState, ContextStateSchema } from "./schema.ts";

function sampleState(overrides: Partial<ContextState> = {}): ContextState {
  const base = emptyContextState("0b1c2d3e-0000-4000-8000-000000000001");
  const state: ContextState = {
    ...base,
    transcriptPath: "/home/u/.claude/projects/-repo/0b1c.jsonl",
    extractedAt: "2026-11-22T10:00:00.000Z",
    conversation: [
      {
        uuid: "u1",
        role: "user",
        kind: "prompt",
        text: "Add retry with backoff to the fetch client",
        timestamp: null,
        tokens: null,
      },
      {
        uuid: "a1",
        role: "assistant",
        kind: "reply",
        text: "I'll wrap fetch in a retry helper.",
        timestamp: null,
        tokens: 40,
      },
    ],
    conversationOmitted: 0,
    contextTokens: 120_000,
    todos: {
      source: "TodoWrite",
      updatedAt: null,
      items: [
        { id: null, content: "Write retry helper", status: "completed", activeForm: null },
        { id: null, content: "Add tests for backoff", status: "in_progress", activeForm: "Adding tests for backoff" },
        { id: null, content: "Update README", status: "pending", activeForm: null },
      ],
    },
    plan: { text: "1. helper\n2. tests\n3. docs", filePath: null, proposedAt: null, approved: true },
    decisions: [
      {
        text: "We use exponential backoff capped at 30 s.",
        by: "assistant",
        source: "reply",
        uuid: "a1",
        timestamp: null,
      },
    ],
    preferences: [{ text: "Never add new dependencies.", by: "user", source: "prompt", uuid: "u1", timestamp: null }],
    files: [
      {
        path: "/repo/src/fetch.ts",
        inProject: true,
        reads: 2,
        writes: 1,
        lastAccess: null,
        lastAction: "edit",
        contentHash: null,
      },
      {
        path: "/repo/src/retry.ts",
        inProject: true,
        reads: 0,
        writes: 1,
        lastAccess: null,
        lastAction: "write",
        contentHash: null,
      },
    ],
    tools: {
      calls: { Edit: 3, Bash: 2 },
      total: 5,
      failures: [{ tool: "Bash", message: "npm test: 2 failing", timestamp: null }],
    },
    session: { ...base.session, userMessages: 1, assistantMessages: 1, cwd: "/repo", gitBranch: "main" },
    ...overrides,
  };
  return state;
}

describe("renderRestoreText", () => {
  it("the sample is a valid state", () => {
    expect(ContextStateSchema.safeParse(sampleState()).success).toBe(true);
  });

  it("summary mode carries the task, todos, plan, decisions, preferences, files and failures, not the conversation", () => {
    const text = renderRestoreText(sampleState(), { mode: "summary", maxChars: 9_500, origin: "snapshot X (auto)" });
    expect(text).toContain("Adding tests for backoff");
    expect(text).toContain('last request from the user: "Add retry with backoff');
    expect(text).toContain("- [x] Write retry helper");
    expect(text).toContain("- [~] Add tests for backoff");
    expect(text).toContain("- [ ] Update README");
    expect(text).toContain("## Plan (approved)");
    expect(text).toContain("exponential backoff capped at 30 s");
    expect(text).toContain("Never add new dependencies. (the user)");
    expect(text).toContain("/repo/src/retry.ts (write, 1 write)");
    expect(text).toContain("Bash: npm test: 2 failing");
    expect(text).toContain("Source: snapshot X (auto).");
    expect(text).not.toContain("## Conversation");
    // Newest file first.
    expect(text.indexOf("/repo/src/retry.ts")).toBeLessThan(text.indexOf("/repo/src/fetch.ts"));
  });

  it("full mode adds the conversation; selective gives only the sections asked for", () => {
    expect(renderRestoreText(sampleState(), { mode: "full", maxChars: 50_000 })).toContain(
      "## Conversation since the last compaction",
    );
    const selective = renderRestoreText(sampleState(), { mode: "selective", maxChars: 9_500, sections: ["todos"] });
    expect(selective).toContain("## Todo list (3)");
    expect(selective).not.toContain("## Plan");
    expect(selective).not.toContain("## Decisions");
  });

  it("never exceeds its budget, and says what it left out", () => {
    const huge = sampleState({
      decisions: Array.from({ length: 50 }, (_, i) => ({
        text: `Decision number ${i} ${"about a long subject ".repeat(10)}`,
        by: "assistant" as const,
        source: "reply" as const,
        uuid: null,
        timestamp: null,
      })),
    });
    for (const maxChars of [400, 1_500, 3_000, 9_500]) {
      const text = renderRestoreText(huge, { mode: "full", maxChars });
      expect(text.length).toBeLessThanOrEqual(maxChars);
    }
    const small = renderRestoreText(huge, { mode: "summary", maxChars: 1_500 });
    expect(small).toMatch(/Not shown for length: .*\. `ctx restore --print` shows everything\./);
  });

  it("an empty state gives just the header", () => {
    const empty = sampleState({
      conversation: [],
      todos: null,
      plan: null,
      decisions: [],
      preferences: [],
      files: [],
      tools: { calls: {}, total: 0, failures: [] },
    });
    const text = renderRestoreText(empty, { mode: "full", maxChars: 9_500 });
    expect(text.split("\n")).toHaveLength(1);
    expect(RESTORE_SECTIONS.every((s) => !text.includes(`## ${s}`))).toBe(true);
  });
});
