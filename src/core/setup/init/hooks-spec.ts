// What ctx wires into Claude Code: the hook events with their matchers and timeouts, the MCP server entry,
// and the shape of a handler. One source of truth for `ctx init`, the plugin files and `ctx doctor`.

/** Claude Code event name -> the `ctx hook <arg>` that handles it (see src/hooks/runtime/schemas.ts). */
export interface CtxHookSpec {
  event: "SessionStart" | "PreCompact" | "PostCompact" | "PostToolUse" | "UserPromptSubmit" | "Stop" | "SessionEnd";
  arg: string;
  /** Omitted for events without matcher support (UserPromptSubmit, Stop) and where every source counts. */
  matcher?: string;
  /** SECONDS (Claude Code's unit). A declared SessionEnd timeout raises the shared 1.5 s SessionEnd budget. */
  timeout: number;
  /**
   * The same work as a tool on ctx's MCP server, for an `mcp_tool` handler (no process per call; see
   * docs/mcp-tool-hooks.md). `input` values are Claude Code's `${field}` placeholders.
   */
  mcpTool?: { tool: string; input: Record<string, string> };
}

/** `${field}`: Claude Code fills it from the hook's input in an `mcp_tool` handler's input values. */
const fromHook = (field: string) => `\${${field}}`;
const GUARD_TICK_INPUT = {
  session_id: fromHook("session_id"),
  transcript_path: fromHook("transcript_path"),
  tool_use_id: fromHook("tool_use_id"),
};

export const CTX_HOOK_SPECS: readonly CtxHookSpec[] = [
  // 30 s: the compact re-injection is fast, but a stuck lock must never hang a session start for 600 s.
  { event: "SessionStart", arg: "session-start", matcher: "startup|resume|clear|compact|fork", timeout: 30 },
  { event: "PreCompact", arg: "pre-compact", matcher: "manual|auto", timeout: 60 },
  // The compaction audit, from the summary Claude Code sends (2.1.76+; older versions never fire it).
  { event: "PostCompact", arg: "post-compact", matcher: "manual|auto", timeout: 30 },
  // Every tool call: through ctx's connected MCP server where `ctx init` wires one (the Stop hook steps the
  // guard for a turn whose calls went unticked, e.g. before the server connected); a process otherwise.
  {
    event: "PostToolUse",
    arg: "post-tool-use",
    matcher: "*",
    timeout: 10,
    mcpTool: { tool: "ctx_guard_tick", input: GUARD_TICK_INPUT },
  },
  { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 10 },
  { event: "Stop", arg: "stop", timeout: 10 },
  { event: "SessionEnd", arg: "session-end", timeout: 10 },
];

/** How ctx is started: `ctx`, `claude-ctx`, or `/abs/node /abs/dist/ctx.js` (prefixArgs = [that path]). */
export interface CtxCommand {
  command: string;
  prefixArgs: string[];
}

export interface CommandHookHandler {
  type: "command";
  command: string;
  args: string[];
  timeout: number;
}

export interface McpToolHookHandler {
  type: "mcp_tool";
  server: string;
  tool: string;
  input: Record<string, string>;
  timeout: number;
}

/**
 * How the hooks reach ctx. `mcp`: events with an MCP tool call it on the `ctx` server (only where that server is
 * wired too: `ctx init`); `command`: a `ctx hook <event>` process for every event (the plugin, hooks-only setups).
 */
export type HookWiring = "mcp" | "command";

export function buildHookHandler(
  spec: CtxHookSpec,
  cmd: CtxCommand,
  wiring: HookWiring = "command",
): CommandHookHandler | McpToolHookHandler {
  if (wiring === "mcp" && spec.mcpTool !== undefined) {
    return {
      type: "mcp_tool",
      server: CTX_MCP_SERVER_NAME,
      tool: spec.mcpTool.tool,
      input: { ...spec.mcpTool.input },
      timeout: spec.timeout,
    };
  }
  return { type: "command", command: cmd.command, args: [...cmd.prefixArgs, "hook", spec.arg], timeout: spec.timeout };
}

/** A matcher group as settings.json holds it: `{ matcher?, hooks: [handler] }`. */
export function buildMatcherGroup(
  spec: CtxHookSpec,
  cmd: CtxCommand,
  wiring: HookWiring = "command",
): Record<string, unknown> {
  const handler = buildHookHandler(spec, cmd, wiring);
  return spec.matcher === undefined ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] };
}

/** The whole `hooks` object for a settings file or a plugin's hooks.json. */
export function buildHooksObject(cmd: CtxCommand, wiring: HookWiring = "command"): Record<string, unknown[]> {
  const hooks: Record<string, unknown[]> = {};
  for (const spec of CTX_HOOK_SPECS) hooks[spec.event] = [buildMatcherGroup(spec, cmd, wiring)];
  return hooks;
}

export function buildMcpServerEntry(cmd: CtxCommand): { type: "stdio"; command: string; args: string[] } {
  return { type: "stdio", command: cmd.command, args: [...cmd.prefixArgs, "serve"] };
}

export const CTX_MCP_SERVER_NAME = "ctx";

/** `ctx`, or `/usr/bin/node /x/dist/ctx.js`, for people to read (not for a shell). */
export function describeCommand(cmd: CtxCommand): string {
  return [cmd.command, ...cmd.prefixArgs].join(" ");
}
