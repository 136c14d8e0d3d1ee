// The checked-in plugin files (.claude-plugin/, hooks/, commands/) must be exactly what the code generates,
// and must have the shape Claude Code expects.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPluginMeta } from "../../setup/plugin-files-write.ts";
import { renderForkDetectCommand } from "./init/fork-detect.ts";
import { CTX_HOOK_SPECS } from "./init/hooks-spec.ts";
import { PLUGIN_ENTRY, renderPluginFiles } from "./plugin-files.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const readJson = (path: string) => JSON.parse(read(path)) as Record<string, unknown>;

// Claude Code v2.1.240 hook events (docs/claude-code-facts.md "Hook events").
const CLAUDE_CODE_EVENTS = new Set(
  "SessionStart Setup SessionEnd UserPromptSubmit UserPromptExpansion Stop StopFailure PreToolUse PermissionRequest PermissionDenied PostToolUse PostToolUseFailure PostToolBatch SubagentStart SubagentStop TaskCreated TaskCompleted TeammateIdle PreCompact PostCompact Notification MessageDisplay InstructionsLoaded ConfigChange CwdChanged DirectoryAdded FileChanged WorktreeCreate WorktreeRemove Elicitation ElicitationResult".split(
    " ",
  ),
);
const NO_MATCHER_EVENTS = new Set(["UserPromptSubmit", "Stop"]);

describe("checked-in plugin files", () => {
  it("equal what the code generates (regenerate: see src/setup/plugin-files-write.ts)", async () => {
    const files = renderPluginFiles(await readPluginMeta(ROOT));
    for (const [path, content] of Object.entries(files)) {
      // JSON by value and key order (the formatter may lay arrays out differently), the command byte for byte.
      if (path.endsWith(".json"))
        expect(JSON.stringify(readJson(path)), path).toBe(JSON.stringify(JSON.parse(content)));
      else expect(read(path), path).toBe(content);
    }
  });

  it("ship the same /fork-detect that ctx init writes", () => {
    expect(read("commands/fork-detect.md")).toBe(renderForkDetectCommand());
  });
});

describe("plugin.json", () => {
  const manifest = readJson(".claude-plugin/plugin.json");
  const pkg = readJson("package.json");

  it("names ctx with package.json's version and license", () => {
    expect(manifest.name).toBe("ctx");
    expect(manifest.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.license).toBe("MIT");
    expect(typeof manifest.description).toBe("string");
    expect(manifest.author).toMatchObject({ name: expect.any(String) });
  });

  it("starts the MCP server from the plugin root", () => {
    expect(PLUGIN_ENTRY).toBe(["$", "{CLAUDE_PLUGIN_ROOT}/dist/ctx.js"].join(""));
    expect(manifest.mcpServers).toEqual({
      ctx: { command: "node", args: [PLUGIN_ENTRY, "serve"] },
    });
  });

  it("does not name the standard hooks/hooks.json, which Claude Code loads by itself", () => {
    expect(manifest.hooks).not.toBe("./hooks/hooks.json");
    expect(JSON.stringify(manifest.hooks ?? null)).not.toContain("hooks/hooks.json");
  });

  it("invents no URLs", () => {
    expect(read(".claude-plugin/plugin.json")).not.toMatch(/https?:/);
  });
});

describe("hooks/hooks.json", () => {
  const file = readJson("hooks/hooks.json");
  const hooks = file.hooks as Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;

  it("has a description and only real Claude Code events, one per ctx hook", () => {
    expect(typeof file.description).toBe("string");
    for (const event of Object.keys(hooks)) expect(CLAUDE_CODE_EVENTS.has(event), event).toBe(true);
    expect(Object.keys(hooks).sort()).toEqual(CTX_HOOK_SPECS.map((spec) => spec.event).sort());
  });

  it("runs node <plugin root>/dist/ctx.js hook <event> with a timeout of a few seconds", () => {
    for (const [event, groups] of Object.entries(hooks)) {
      expect(groups).toHaveLength(1);
      const handler = groups[0]?.hooks[0];
      expect(handler?.type).toBe("command");
      expect(handler?.command).toBe("node");
      expect(handler?.args).toEqual([PLUGIN_ENTRY, "hook", expect.stringMatching(/^[a-z-]+$/)]);
      // Seconds, not milliseconds (a peer shipped 30000 = 8 hours).
      expect(handler?.timeout, event).toBeGreaterThan(0);
      expect(handler?.timeout, event).toBeLessThanOrEqual(60);
      if (NO_MATCHER_EVENTS.has(event)) expect(groups[0]).not.toHaveProperty("matcher");
    }
  });
});

describe("marketplace.json", () => {
  const market = readJson(".claude-plugin/marketplace.json");

  it("lists the ctx plugin from the npm package", () => {
    expect(typeof market.name).toBe("string");
    expect(market.owner).toMatchObject({ name: expect.any(String) });
    expect(market.plugins).toEqual([
      expect.objectContaining({ name: "ctx", source: { source: "npm", package: "claude-ctx" } }),
    ]);
  });

  it("points at a package that ships the plugin folders", () => {
    const pkg = readJson("package.json");
    expect(pkg.name).toBe("claude-ctx");
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", ".claude-plugin", "hooks", "commands"]));
  });
});
