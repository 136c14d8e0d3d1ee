import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderForkDetectCommand } from "./fork-detect.ts";
import {
  INIT_FILES,
  type InitFileKey,
  isAlreadySetUp,
  type PlannedChange,
  type ProjectSnapshot,
  planInit,
} from "./plan.ts";

const cmd = { command: "ctx", prefixArgs: [] };
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

function snapshot(
  files: Partial<Record<InitFileKey, string | null>> = {},
  ctxDir: ProjectSnapshot["ctxDir"] = { kind: "missing" },
): ProjectSnapshot {
  return { files: { ...NO_FILES, ...files }, ctxDir };
}

/** What the files hold after applying a plan, the way the shell would write them. */
function applied(before: ProjectSnapshot, changes: PlannedChange[]): ProjectSnapshot {
  const files = { ...before.files };
  for (const key of Object.keys(INIT_FILES) as InitFileKey[]) {
    const operation = changes.find((change) => change.file === INIT_FILES[key])?.operation;
    if (operation?.kind === "write") files[key] = operation.content;
    if (operation?.kind === "delete") files[key] = null;
  }
  const dirOp = changes.find((change) => change.file === ".ctx/")?.operation;
  return { files, ctxDir: dirOp ? { kind: "folder", mode: 0o700 } : before.ctxDir };
}

const byFile = (changes: PlannedChange[]) => Object.fromEntries(changes.map((change) => [change.file, change.action]));

const USER = {
  mcpJson: '{\n  "mcpServers": {\n    "db": {\n      "command": "db-mcp"\n    }\n  }\n}\n',
  settings:
    '{\n    "model": "opus",\n    "hooks": {\n        "Stop": [\n            {\n                "hooks": [\n                    {\n                        "type": "command",\n                        "command": "say done"\n                    }\n                ]\n            }\n        ]\n    }\n}\n',
  settingsLocal: '{\n  "permissions": {\n    "allow": []\n  }\n}\n',
  gitignore: "node_modules/\n",
};

describe("planInit install", () => {
  it("creates everything in an empty project", () => {
    const changes = planInit(snapshot(), "install", cmd);
    expect(byFile(changes)).toEqual({
      ".mcp.json": "create",
      ".claude/settings.json": "create",
      ".claude/settings.local.json": "create",
      ".claude/commands/fork-detect.md": "create",
      ".claude/commands/summarize-all.md": "create",
      ".claude/commands/summarize-from.md": "create",
      ".claude/commands/clear-summaries.md": "create",
      ".claude/commands/context-stats.md": "create",
      ".claude/commands/stats.md": "create",
      ".claude/commands/reindex.md": "create",
      ".gitignore": "create",
      ".ctx/": "create",
    });
    expect(isAlreadySetUp(changes)).toBe(false);
  });

  it("is a no-op the second time: byte-identical files, already set up", () => {
    const first = snapshot(USER);
    const second = applied(first, planInit(first, "install", cmd));
    const again = planInit(second, "install", cmd);
    expect(again.every((change) => change.action === "unchanged" && change.operation === undefined)).toBe(true);
    expect(isAlreadySetUp(again)).toBe(true);
    expect(applied(second, again)).toEqual(second);
  });

  it("keeps the user's content and formatting (4-space settings stay 4-space)", () => {
    const after = applied(snapshot(USER), planInit(snapshot(USER), "install", cmd));
    expect(after.files.settings).toContain('\n    "model": "opus",\n');
    expect(after.files.settings).toContain('"command": "say done"');
    expect(after.files.mcpJson).toContain('"db-mcp"');
    expect(after.files.gitignore?.startsWith("node_modules/\n")).toBe(true);
  });

  it("stops on invalid JSON before planning anything else", () => {
    expect(() => planInit(snapshot({ ...USER, settingsLocal: '{"a": }' }), "install", cmd)).toThrow(
      /\.claude\/settings\.local\.json is not valid JSON: .* line 1, column 7/,
    );
  });

  it("leaves a /fork-detect the person edited, and updates ctx's earlier version", () => {
    const edited = renderForkDetectCommand().replace("numbered list", "table");
    const skip = planInit(snapshot({ forkDetect: edited }), "install", cmd).find(
      (c) => c.file === INIT_FILES.forkDetect,
    );
    expect(skip).toMatchObject({ action: "skip" });
    expect(skip?.operation).toBeUndefined();

    const body = renderForkDetectCommand()
      .replace("numbered list", "list")
      .replace(/^# ctx-generated.*\n/m, "");
    const earlier = body.replace(
      "\n---\n",
      `\n# ctx-generated sha256:${createHash("sha256").update(body).digest("hex").slice(0, 16)}\n---\n`,
    );
    const update = planInit(snapshot({ forkDetect: earlier }), "install", cmd).find(
      (c) => c.file === INIT_FILES.forkDetect,
    );
    expect(update).toMatchObject({
      action: "update",
      operation: { kind: "write", content: renderForkDetectCommand() },
    });
  });

  it("tightens a .ctx/ folder others can read", () => {
    const change = planInit(snapshot({}, { kind: "folder", mode: 0o755 }), "install", cmd).find(
      (c) => c.file === ".ctx/",
    );
    expect(change).toMatchObject({ action: "update", details: ["~ mode 0755 -> 0700"] });
  });
});

describe("planInit and a .ctx that is not a folder", () => {
  const other = { kind: "other" as const, path: "/p/.ctx", what: "a file" };

  it("refuses to install, naming the path, with a hint", () => {
    expect(() => planInit(snapshot({}, other), "install", cmd)).toThrow(
      expect.objectContaining({
        code: "INIT_CONFLICT",
        message: expect.stringContaining("/p/.ctx exists but is a file, not a folder"),
        hint: expect.stringMatching(/rename or remove it.*nothing was written/),
      }),
    );
  });

  it("leaves it alone when removing", () => {
    const change = planInit(snapshot({}, other), "remove", cmd).find((c) => c.file === ".ctx/");
    expect(change).toMatchObject({ action: "unchanged" });
    expect(change?.operation).toBeUndefined();
  });
});

describe("planInit remove", () => {
  it("never overwrites a slash command file the person wrote, and updates its own", () => {
    const mine = "---\ndescription: my own\n---\nDo it my way.\n";
    const changes = planInit(snapshot({ summarizeAll: mine }), "install", cmd);
    expect(changes.find((c) => c.file === INIT_FILES.summarizeAll)).toMatchObject({ action: "skip" });
    expect(changes.find((c) => c.file === INIT_FILES.summarizeAll)?.operation).toBeUndefined();
    const installed = applied(snapshot(), planInit(snapshot(), "install", cmd));
    const own = installed.files.contextStats ?? "";
    expect(own).toContain("mcp__ctx__ctx_context_stats");
    const removed = planInit({ ...installed, files: { ...installed.files, clearSummaries: mine } }, "remove", cmd);
    expect(removed.find((c) => c.file === INIT_FILES.clearSummaries)).toMatchObject({ action: "skip" });
    expect(removed.find((c) => c.file === INIT_FILES.summarizeAll)).toMatchObject({ action: "remove" });
  });

  it("empties a linked file instead of deleting the person's link", () => {
    const installed = applied(snapshot(), planInit(snapshot(), "install", cmd));
    const changes = planInit({ ...installed, linked: ["mcpJson", "forkDetect"] }, "remove", cmd);
    expect(changes.find((c) => c.file === INIT_FILES.mcpJson)).toMatchObject({
      action: "update",
      operation: { kind: "write", content: "{}\n" },
    });
    expect(changes.find((c) => c.file === INIT_FILES.forkDetect)).toMatchObject({ action: "skip" });
    expect(changes.find((c) => c.file === INIT_FILES.settings)?.operation).toEqual({ kind: "delete" });
  });

  it("restores the user's files byte for byte and deletes the files ctx created", () => {
    const before = snapshot(USER);
    const installed = applied(before, planInit(before, "install", cmd));
    const removed = applied(installed, planInit(installed, "remove", cmd));
    expect(removed.files).toEqual({
      ...USER,
      forkDetect: null,
      summarizeAll: null,
      summarizeFrom: null,
      clearSummaries: null,
      contextStats: null,
      stats: null,
      reindex: null,
    });
  });

  it("deletes every file in a project that had none, and keeps .ctx/", () => {
    const installed = applied(snapshot(), planInit(snapshot(), "install", cmd));
    const changes = planInit(installed, "remove", cmd);
    expect(applied(installed, changes).files).toEqual(NO_FILES);
    expect(changes.find((change) => change.file === ".ctx/")).toMatchObject({ action: "skip" });
  });

  it("changes nothing where ctx was never set up", () => {
    const changes = planInit(snapshot(USER), "remove", cmd);
    expect(changes.every((change) => change.operation === undefined)).toBe(true);
  });
});
