import { describe, expect, it } from "vitest";
import { emptyContextState } from "../../../tests/helpers/context-state.ts";
import type { ContextState } from "../context/schema.ts";
import type { Rule } from "../rules/claude-md.ts";
import { auditCompaction, auditedItems, countFates } from "./compaction-audit.ts";
import { buildAuditReport, renderLostBlock } from "./report.ts";

const rule = (text: string): Rule => ({ text, marker: "ENFORCED", source: "/repo/CLAUDE.md", line: 1 });
const statement = (text: string, by: "user" | "assistant" = "user") => ({
  text,
  by,
  source: "prompt" as const,
  uuid: null,
  timestamp: null,
});

function sessionState(): ContextState {
  const state = emptyContextState();
  return {
    ...state,
    projectRoot: "/repo",
    todos: {
      source: "TodoWrite",
      updatedAt: null,
      items: [
        { id: null, content: "Write the retry helper", status: "in_progress", activeForm: null },
        { id: null, content: "Add jittered backoff tests", status: "pending", activeForm: null },
        { id: null, content: "Read the old client", status: "completed", activeForm: null },
      ],
    },
    plan: { text: "# Retry plan\n1. helper\n2. tests", filePath: null, proposedAt: null, approved: true },
    decisions: [statement("We decided to use exponential backoff with a cap of 30 seconds.", "assistant")],
    preferences: [statement("Always use tabs for indentation.")],
    files: [
      {
        path: "/repo/src/retry.ts",
        inProject: true,
        reads: 1,
        writes: 2,
        lastAccess: null,
        lastAction: "edit",
        contentHash: null,
      },
      {
        path: "/repo/src/client.ts",
        inProject: true,
        reads: 3,
        writes: 0,
        lastAccess: null,
        lastAction: "read",
        contentHash: null,
      },
      {
        path: "/repo/test/retry.test.ts",
        inProject: true,
        reads: 0,
        writes: 1,
        lastAccess: null,
        lastAction: "write",
        contentHash: null,
      },
    ],
    tools: {
      calls: {},
      total: 4,
      failures: [{ tool: "Bash", message: "pnpm test: 3 failing in retry.test.ts", timestamp: null }],
    },
  };
}

describe("compaction-loss audit", () => {
  it("collects the open tasks, plan, rules, decisions, preferences, edited files and failures", () => {
    const items = auditedItems(sessionState(), [rule("- Never push to main. (CRITICAL)")]);
    expect(items.map((item) => [item.kind, item.text])).toEqual([
      ["task", "Write the retry helper"],
      ["task", "Add jittered backoff tests"],
      ["plan", "Retry plan (approved)"],
      ["rule", "- Never push to main. (CRITICAL)"],
      ["decision", "We decided to use exponential backoff with a cap of 30 seconds."],
      ["preference", "Always use tabs for indentation."],
      ["file", "test/retry.test.ts"],
      ["file", "src/retry.ts"],
      ["failure", "Bash: pnpm test: 3 failing in retry.test.ts"],
    ]);
  });

  it("tells kept, paraphrased and lost apart for every kind", () => {
    const summary = [
      "Pending: write the retry helper. The retry plan was approved.",
      "Decision: exponential backoff, capped at 30 seconds; we decided that early.",
      "Edited src/retry.ts and retry.test.ts. Bash pnpm test had 3 failing tests in retry.test.ts.",
    ].join("\n");
    const items = auditCompaction({
      state: sessionState(),
      rules: [rule("- Never push to main. (CRITICAL)")],
      summary,
      threshold: 0.6,
    });
    expect(items.map((item) => `${item.kind}:${item.fate}`)).toEqual([
      "task:kept",
      "task:lost",
      "plan:kept",
      "rule:lost",
      "decision:paraphrased",
      "preference:lost",
      "file:paraphrased",
      "file:kept",
      "failure:paraphrased",
    ]);
    expect(countFates(items)).toEqual({ kept: 3, paraphrased: 3, lost: 3 });
  });

  it("leads the re-injection with the lost items, within its cap, counting what does not fit", () => {
    const items = auditCompaction({ state: sessionState(), rules: [], summary: "nothing useful", threshold: 0.6 });
    const lost = items.filter((item) => item.fate === "lost").length;
    const full = renderLostBlock(items, 10_000);
    expect(full.split("\n")).toHaveLength(lost + 1);
    expect(full).toContain("- open task: Add jittered backoff tests");
    const cut = renderLostBlock(items, 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).toMatch(/- … \d+ more \(`ctx audit` lists them\)$/);
    expect(renderLostBlock(items, 20)).toBe("");
    expect(
      renderLostBlock(
        items.map((item) => ({ ...item, fate: "kept" as const })),
        10_000,
      ),
    ).toBe("");
  });

  it("reports compactions newest first with their lost items", () => {
    const items = auditCompaction({
      state: sessionState(),
      rules: [],
      summary: "write the retry helper",
      threshold: 0.6,
    });
    const base = {
      version: 1 as const,
      sessionId: "s1",
      summarySource: "transcript" as const,
      summaryChars: 1,
      threshold: 0.6,
      items,
    };
    const report = buildAuditReport([
      { ...base, snapshotId: "20261122T100000000Z-aaaaaa", at: "2026-11-22T10:00:00.000Z" },
      { ...base, snapshotId: "20261122T110000000Z-bbbbbb", at: "2026-11-22T11:00:00.000Z" },
    ]);
    expect(report.compactions.map((c) => c.snapshotId)).toEqual([
      "20261122T110000000Z-bbbbbb",
      "20261122T100000000Z-aaaaaa",
    ]);
    expect(report.compactions[0]?.lostItems[0]).toEqual({ kind: "task", text: "Add jittered backoff tests" });
    expect(report.compactions[0]?.kept).toBe(1);
  });
});
