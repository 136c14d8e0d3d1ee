import { describe, expect, it } from "vitest";
import { emptyContextState } from "../../../tests/helpers/context-state.ts";
import { mergeContextStates } from "./merge.ts";
import type { ContextState, FileAccess } from "./schema.ts";

const file = (path: string, reads: number, writes: number): FileAccess => ({
  path,
  inProject: true,
  reads,
  writes,
  lastAccess: null,
  lastAction: writes > 0 ? "write" : "read",
  contentHash: null,
});

function state(over: Partial<ContextState> & { boundary?: string | null }): ContextState {
  const { boundary = null, ...rest } = over;
  const base = emptyContextState();
  return {
    ...base,
    session: {
      ...base.session,
      compactions: boundary === null ? 0 : 1,
      lastCompaction:
        boundary === null ? null : { trigger: "auto", preTokens: 1, postTokens: null, timestamp: boundary },
    },
    ...rest,
  };
}

const todos = {
  source: "TodoWrite" as const,
  updatedAt: null,
  items: [{ id: null, content: "A", status: "pending", activeForm: null }],
};
const decision = (text: string) => ({
  text,
  by: "assistant" as const,
  source: "reply" as const,
  uuid: null,
  timestamp: null,
});

describe("mergeContextStates", () => {
  it("carries todos, plan and earlier decisions across a compaction, and adds file counts of the two segments", () => {
    const before = state({
      todos,
      decisions: [decision("Use zod")],
      files: [file("/repo/a.ts", 2, 1)],
      boundary: null,
    });
    const after = state({
      decisions: [decision("Keep it small")],
      files: [file("/repo/a.ts", 1, 0), file("/repo/b.ts", 1, 0)],
      boundary: "T1",
    });
    const merged = mergeContextStates(before, after);
    expect(merged.todos).toEqual(todos);
    expect(merged.decisions.map((d) => d.text)).toEqual(["Use zod", "Keep it small"]);
    expect(merged.files.map((f) => [f.path, f.reads, f.writes])).toEqual([
      ["/repo/a.ts", 3, 1],
      ["/repo/b.ts", 1, 0],
    ]);
  });

  it("re-extracting the same segment does not double counts or repeat decisions", () => {
    const first = state({ decisions: [decision("Use zod")], files: [file("/repo/a.ts", 2, 1)], boundary: "T1" });
    const again = state({ decisions: [decision("Use zod")], files: [file("/repo/a.ts", 3, 1)], boundary: "T1" });
    const merged = mergeContextStates(first, again);
    expect(merged.files).toEqual([file("/repo/a.ts", 3, 1)]);
    expect(merged.decisions).toHaveLength(1);
  });

  it("the newer todo list wins, and another session's state is never merged in", () => {
    const newer = { ...todos, items: [{ id: null, content: "B", status: "in_progress", activeForm: null }] };
    expect(mergeContextStates(state({ todos }), state({ todos: newer })).todos).toEqual(newer);
    const other = state({ todos });
    const mine = state({ sessionId: "s2" });
    expect(mergeContextStates(other, mine).todos).toBeNull();
    expect(mergeContextStates(null, mine)).toBe(mine);
  });

  it("keeps the session's title across a compaction when the new segment has none; a newer title wins", () => {
    const titled = (title: string | null, boundary: string | null) => {
      const base = state({ boundary });
      return { ...base, session: { ...base.session, title } };
    };
    const merged = mergeContextStates(titled("Retry helper", null), titled(null, "2026-11-28T10:00:00Z"));
    expect(merged.session.title).toBe("Retry helper");
    expect(merged.session.lastCompaction?.timestamp).toBe("2026-11-28T10:00:00Z");
    expect(mergeContextStates(titled("Old", null), titled("New", "2026-11-28T10:00:00Z")).session.title).toBe("New");
  });
});
