import { describe, expect, it } from "vitest";
import { planInit } from "./plan.ts";
import { buildInitReport, formatInitReport, type InitOutcome } from "./report.ts";

const command = { command: "ctx", prefixArgs: [], reason: "`ctx` on PATH is this program" };
const empty = {
  files: {
    mcpJson: null,
    settings: null,
    settingsLocal: null,
    forkDetect: null,
    summarizeAll: null,
    summarizeFrom: null,
    clearSummaries: null,
    contextStats: null,
    stats: null,
    reindex: null,
    gitignore: null,
  },
  ctxDir: { kind: "missing" as const },
};

function outcome(overrides: Partial<InitOutcome> = {}): InitOutcome {
  return {
    project: "/p",
    mode: "install",
    dryRun: false,
    command,
    changes: planInit(empty, "install", command),
    warnings: [],
    ...overrides,
  };
}

describe("init report", () => {
  it("lists each file with its action and details, then the next steps", () => {
    const text = formatInitReport(buildInitReport(outcome()));
    expect(text.split("\n")[0]).toBe("ctx init: /p");
    const lines = text.split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}created\s+\.mcp\.json\s+\+ mcpServers\.ctx: ctx serve$/));
    // A file's further details line up under its first one.
    const first = lines.find((line) => line.includes("+ hooks.SessionStart")) ?? "";
    const next = lines.find((line) => line.includes("+ hooks.PreCompact")) ?? "";
    expect(next.trimStart()).toMatch(/^\+ hooks\.PreCompact: pre-compact hook \(matcher manual\|auto, timeout 60 s\)$/);
    expect(next.indexOf("+")).toBe(first.indexOf("+"));
    expect(text).toContain("1. ctx doctor");
  });

  it("speaks in the conditional for a dry run", () => {
    const text = formatInitReport(buildInitReport(outcome({ dryRun: true })));
    expect(text).toContain("--dry-run (nothing written)");
    expect(text).toMatch(/would create\s+\.gitignore/);
    expect(text).toContain("without --dry-run");
  });

  it("says already set up when nothing changes", () => {
    const unchanged = planInit(empty, "install", command).map((change) => ({
      file: change.file,
      action: "unchanged" as const,
      details: [],
    }));
    const report = buildInitReport(outcome({ changes: unchanged }));
    expect(report.alreadySetUp).toBe(true);
    expect(formatInitReport(report)).toContain("already set up");
  });

  it("builds the --json shape", () => {
    const report = buildInitReport(outcome({ warnings: ["w"] }));
    expect(report).toMatchObject({
      project: "/p",
      command: { command: "ctx", args: [] },
      warnings: ["w"],
      alreadySetUp: false,
    });
    expect(report.changes[0]).toEqual({
      file: ".mcp.json",
      action: "create",
      details: ["+ mcpServers.ctx: ctx serve"],
    });
    expect(report.changes[0]).not.toHaveProperty("operation");
  });
});
