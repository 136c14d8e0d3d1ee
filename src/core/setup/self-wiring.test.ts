// The repository uses ctx itself: its `.mcp.json`, `.claude/settings.json` and `/fork-detect` are what the code
// generates (ctx from this checkout's build), `.claude/commands/` are valid slash commands, CLAUDE.md marks the
// non-negotiables (ENFORCED) so ctx re-injects them after a compaction, and the personal files stay out of git.
// The e2e (tests/e2e/claude-code-self.test.ts) runs them in the real Claude Code.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { extractRules } from "../rules/claude-md.ts";
import { gitignoreIgnoresCtx, gitignoreIgnoresLocalSettings } from "./init/gitignore.ts";
import { CTX_HOOK_SPECS } from "./init/hooks-spec.ts";
import { renderSelfWiringFiles, SELF_HOOK_ENTRY } from "./self-wiring.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

describe("the repository's own Claude Code wiring", () => {
  it("equals what the code generates (regenerate: src/setup/self-wiring-write.ts)", () => {
    for (const [path, content] of Object.entries(renderSelfWiringFiles())) {
      if (path.endsWith(".json")) expect(JSON.parse(read(path)), path).toEqual(JSON.parse(content));
      else expect(read(path), path).toBe(content);
    }
  });

  it("runs this checkout's build for every hook ctx wires (PostToolUse through its MCP server, as ctx init does)", () => {
    const settings = JSON.parse(read(".claude/settings.json")) as {
      hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
    };
    expect(Object.keys(settings.hooks).sort()).toEqual(CTX_HOOK_SPECS.map((s) => s.event).sort());
    for (const spec of CTX_HOOK_SPECS) {
      const handler = settings.hooks[spec.event]?.[0]?.hooks[0];
      if (spec.mcpTool === undefined) {
        expect(handler).toMatchObject({ command: "node", args: [SELF_HOOK_ENTRY, "hook", spec.arg] });
      } else {
        expect(handler).toMatchObject({ type: "mcp_tool", server: "ctx", tool: spec.mcpTool.tool });
      }
    }
    const mcp = JSON.parse(read(".mcp.json")) as { mcpServers: Record<string, unknown> };
    expect(mcp.mcpServers).toHaveProperty("ctx");
  });

  it("has slash commands with a description each", () => {
    const folder = join(ROOT, ".claude", "commands");
    const names = readdirSync(folder).filter((name) => name.endsWith(".md"));
    expect(names).toEqual(expect.arrayContaining(["check.md", "fork-detect.md"]));
    for (const name of names) {
      const match = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(folder, name), "utf8"));
      expect(match, name).not.toBeNull();
      const meta = parseYaml(match?.[1] ?? "") as Record<string, unknown>;
      expect(typeof meta.description, name).toBe("string");
    }
  });

  it("marks the non-negotiables in CLAUDE.md (ENFORCED), short enough to re-inject", () => {
    const rules = extractRules(read("CLAUDE.md"), "CLAUDE.md");
    expect(rules.length).toBeGreaterThanOrEqual(5);
    expect(rules.map((r) => r.text).join("\n")).toMatch(/redacted/);
    expect(rules.reduce((sum, r) => sum + r.text.length, 0)).toBeLessThan(1_500);
  });

  it("keeps .ctx/ and .claude/settings.local.json out of git", () => {
    const gitignore = read(".gitignore");
    expect(gitignoreIgnoresCtx(gitignore)).toBe(true);
    expect(gitignoreIgnoresLocalSettings(gitignore)).toBe(true);
  });
});
