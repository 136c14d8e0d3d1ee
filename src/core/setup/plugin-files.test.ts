// The checked-in marketplace file must be exactly what the code generates, and the plugin's files (which the build
// writes into plugin/: tests/build/plugin-folder.test.ts checks the folder) must have the shape Claude Code expects.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPluginMeta } from "../../setup/plugin-files-write.ts";
import { renderForkDetectCommand } from "./init/fork-detect.ts";
import { CTX_HOOK_SPECS } from "./init/hooks-spec.ts";
import { PLUGIN_ENTRY, PLUGIN_FOLDER, renderMarketplaceFiles, renderPluginFiles } from "./plugin-files.ts";

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

const meta = await readPluginMeta(ROOT);
const pluginFiles = renderPluginFiles(meta);
const rendered = (path: string) => pluginFiles[`${PLUGIN_FOLDER}/${path}`] ?? "";
const renderedJson = (path: string) => JSON.parse(rendered(path)) as Record<string, unknown>;

describe("the checked-in marketplace file", () => {
  it("equals what the code generates (regenerate: see src/setup/plugin-files-write.ts)", () => {
    for (const [path, content] of Object.entries(renderMarketplaceFiles(meta))) {
      // By value and key order: the formatter may lay arrays out differently.
      expect(JSON.stringify(readJson(path)), path).toBe(JSON.stringify(JSON.parse(content)));
    }
  });
});

describe("the plugin's files", () => {
  it("all live in the plugin folder, which holds no marketplace", () => {
    for (const path of Object.keys(pluginFiles)) expect(path.startsWith(`${PLUGIN_FOLDER}/`), path).toBe(true);
    expect(Object.keys(pluginFiles)).not.toContain(`${PLUGIN_FOLDER}/.claude-plugin/marketplace.json`);
  });

  it("ship the same /fork-detect that ctx init writes", () => {
    expect(rendered("commands/fork-detect.md")).toBe(renderForkDetectCommand());
  });
});

describe("plugin.json", () => {
  const manifest = renderedJson(".claude-plugin/plugin.json");
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
    expect(rendered(".claude-plugin/plugin.json")).not.toMatch(/https?:/);
  });
});

describe("hooks/hooks.json", () => {
  const file = renderedJson("hooks/hooks.json");
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

  it("lists the ctx plugin from the plugin folder of this clone (a local source: nothing to fetch)", () => {
    expect(typeof market.name).toBe("string");
    expect(market.owner).toMatchObject({ name: expect.any(String) });
    expect(market.plugins).toEqual([expect.objectContaining({ name: "ctx", source: `./${PLUGIN_FOLDER}` })]);
  });

  it("sits in a root that is not a plugin itself (its CLAUDE.md is for contributors)", () => {
    expect(() => read(".claude-plugin/plugin.json")).toThrow();
    expect(read("CLAUDE.md")).toMatch(/^# Working on ctx/);
  });
});
