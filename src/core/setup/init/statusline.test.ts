import { describe, expect, it } from "vitest";
import { INIT_FILES, type InitFileKey, type ProjectSnapshot, planInit } from "./plan.ts";
import { mergeStatusLine, removeStatusLine, statusLineCommand } from "./statusline.ts";

const cmd = { command: "node", prefixArgs: ["/opt/my tools/ctx/dist/ctx.js"] };
const NO_FILES: Record<InitFileKey, string | null> = {
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
};
const snapshot = (settings: string | null): ProjectSnapshot => ({
  files: { ...NO_FILES, settings },
  ctxDir: { kind: "missing" },
});
const settingsAfter = (
  snap: ProjectSnapshot,
  options: { statusLine?: boolean; force?: boolean },
  mode: "install" | "remove" = "install",
) => {
  const change = planInit(snap, mode, cmd, options).find((c) => c.file === INIT_FILES.settings);
  const op = change?.operation;
  return { change, value: op?.kind === "write" ? JSON.parse(op.content) : null };
};

describe("ctx init --statusline", () => {
  it("quotes the command for the shell Claude Code runs it in", () => {
    expect(statusLineCommand(cmd)).toBe("node '/opt/my tools/ctx/dist/ctx.js' statusline");
    expect(statusLineCommand({ command: "ctx", prefixArgs: [] })).toBe("ctx statusline");
  });

  it("adds the status line next to the hooks, only when asked", () => {
    expect(settingsAfter(snapshot(null), {}).value.statusLine).toBeUndefined();
    const { value, change } = settingsAfter(snapshot(null), { statusLine: true });
    expect(value.statusLine).toEqual({ type: "command", command: "node '/opt/my tools/ctx/dist/ctx.js' statusline" });
    expect(value.hooks.PostToolUse).toBeDefined();
    expect(change?.details).toContain("+ statusLine: node '/opt/my tools/ctx/dist/ctx.js' statusline");
  });

  it("never clobbers another status line without --force; keeps the person's padding on ctx's own", () => {
    const theirs = JSON.stringify({ statusLine: { type: "command", command: "~/.claude/statusline.sh" } });
    const kept = settingsAfter(snapshot(theirs), { statusLine: true });
    expect(kept.value.statusLine).toEqual({ type: "command", command: "~/.claude/statusline.sh" });
    expect(kept.change?.details.some((d) => d.includes("--force"))).toBe(true);
    const forced = settingsAfter(snapshot(theirs), { statusLine: true, force: true });
    expect(forced.value.statusLine.command).toContain("statusline");
    const ours = { statusLine: { type: "command", command: "ctx statusline", padding: 2 } };
    expect(mergeStatusLine(ours, cmd, false).value.statusLine).toEqual({
      type: "command",
      command: "node '/opt/my tools/ctx/dist/ctx.js' statusline",
      padding: 2,
    });
  });

  it("--remove takes out ctx's status line only", () => {
    const ours = { statusLine: { type: "command", command: "ctx statusline" }, model: "opus" };
    expect(removeStatusLine(ours, cmd).value).toEqual({ model: "opus" });
    const theirs = { statusLine: { type: "command", command: "~/.claude/statusline.sh" } };
    expect(removeStatusLine(theirs, cmd).value).toEqual(theirs);
    const installed = settingsAfter(snapshot(null), { statusLine: true }).value;
    const removed = planInit(snapshot(JSON.stringify(installed)), "remove", cmd).find(
      (c) => c.file === INIT_FILES.settings,
    );
    expect(removed?.operation?.kind).toBe("delete");
  });
});
