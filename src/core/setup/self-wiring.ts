// The repository's own Claude Code wiring (`.mcp.json`, `.claude/settings.json`, `.claude/commands/fork-detect.md`
// at the top of the checkout): ctx from this checkout's build, so a contributor running Claude Code here uses the
// ctx they are working on. Generated from the same hook table and slash command as `ctx init`; a test keeps the
// checked-in files equal to this output (regenerate: src/setup/self-wiring-write.ts), but for .claude/settings.json,
// the hooks, which `pnpm build` writes (./built-wiring.ts).
import { renderForkDetectCommand } from "./init/fork-detect.ts";
import { buildHooksObject, buildMcpServerEntry, type CtxCommand } from "./init/hooks-spec.ts";
import { serializeJson } from "./init/json-text.ts";

// Claude Code substitutes ${CLAUDE_PROJECT_DIR} in exec-form hook arguments and (with `:-` defaults) in .mcp.json;
// hooks always have it, `claude mcp list` may not, and then runs from the project folder, where `.` is right.
// biome-ignore lint/suspicious/noTemplateCurlyInString: a literal placeholder for Claude Code, not a template.
export const SELF_HOOK_ENTRY = "${CLAUDE_PROJECT_DIR}/dist/ctx.js";
// biome-ignore lint/suspicious/noTemplateCurlyInString: a literal placeholder for Claude Code, not a template.
export const SELF_MCP_ENTRY = "${CLAUDE_PROJECT_DIR:-.}/dist/ctx.js";

/** This repository's .claude/settings.json: ctx's hooks, running this checkout's build. */
export function renderSelfSettings(): string {
  const hookCommand: CtxCommand = { command: "node", prefixArgs: [SELF_HOOK_ENTRY] };
  return serializeJson({ hooks: buildHooksObject(hookCommand, "mcp") });
}

export function renderSelfWiringFiles(): Record<string, string> {
  const mcpCommand: CtxCommand = { command: "node", prefixArgs: [SELF_MCP_ENTRY] };
  return {
    ".mcp.json": serializeJson({ mcpServers: { ctx: buildMcpServerEntry(mcpCommand) } }),
    ".claude/commands/fork-detect.md": renderForkDetectCommand(),
  };
}
