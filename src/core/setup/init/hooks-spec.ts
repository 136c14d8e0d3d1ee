// What ctx wires into Claude Code: the hook events with their matchers and timeouts (from the events table,
// core/hooks/events.ts), the MCP server entry, and the shape of a handler; for `ctx init`, the plugin files and
// `ctx doctor`.

import { type ClaudeHookEvent, HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEventSpec } from "../../hooks/events.ts";

/** Claude Code event name -> the `ctx hook <arg>` that handles it, with what settings.json gets (core/hooks/events.ts). */
export interface CtxHookSpec extends Pick<HookEventSpec["wiring"], "matcher" | "timeout" | "mcpTool"> {
  event: ClaudeHookEvent;
  arg: string;
}

export const CTX_HOOK_SPECS: readonly CtxHookSpec[] = HOOK_EVENT_NAMES.map((arg) => {
  const row: HookEventSpec = HOOK_EVENTS[arg];
  return { event: HOOK_EVENTS[arg].claude, arg, ...row.wiring };
});

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
