import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveClaudeDir, resolveIndexPath } from "./paths.ts";

describe("index paths", () => {
  it("prefers --claude-dir, then CLAUDE_CONFIG_DIR, then ~/.claude", () => {
    const env = { HOME: "/home/u", CLAUDE_CONFIG_DIR: "/cfg" };
    expect(resolveClaudeDir({ claudeDir: "/flag", env })).toBe("/flag");
    expect(resolveClaudeDir({ env })).toBe("/cfg");
    expect(resolveClaudeDir({ env: { HOME: "/home/u", CLAUDE_CONFIG_DIR: "" } })).toBe(join("/home/u", ".claude"));
  });

  it("puts the index in CTX_HOME, else ~/.ctx", () => {
    expect(resolveIndexPath({ HOME: "/home/u", CTX_HOME: "/ctxhome" })).toBe(join("/ctxhome", "index.db"));
    expect(resolveIndexPath({ HOME: "/home/u" })).toBe(join("/home/u", ".ctx", "index.db"));
  });
});
