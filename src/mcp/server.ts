// createServer(deps): the ctx MCP server with its instructions, tools and resources. No I/O here:
// the transport is attached by the caller (stdio in production, in-memory in tests).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerTool } from "./define-tool.ts";
import type { ServerDeps } from "./deps.ts";
import { PROMPT_REGISTRARS } from "./prompts/registry.ts";
import { RESOURCE_REGISTRARS } from "./resources/registry.ts";
import { TOOLS } from "./tools/registry.ts";

// What the tool list cannot say: what ctx is for, which tool to call when, and the limits. Each tool's own
// description is the catalogue, so a new tool needs no line here (server.test.ts checks that every ctx_ name here
// is a registered tool). Claude Code truncates server instructions at 2 KB; the test keeps this well under it.
export const SERVER_INSTRUCTIONS = [
  "ctx keeps this project's working context (task, todos, plan, decisions, files) alive across compactions and " +
    "sessions: its hooks save it (secrets redacted, in .ctx/) before a compaction and give it back after. " +
    "When to use which tool:",
  "- Before work that may have been done before: ctx_fork_detect, then offer its sessions to fork (never run the " +
    "commands yourself); ctx_library stars, tags or notes a session when asked.",
  "- Before a risky change: ctx_save with a name; ctx_restore reads it back (changing no files), ctx_diff shows " +
    "what changed on disk since.",
  "- After a compaction: ctx_audit shows what its summary lost; ctx_restore or a snapshot gives it back.",
  "- When the context window fills: ctx_health gives the tier and tool calls left; ctx_budget keeps items in view " +
    "across compactions.",
  "- Facts for later sessions: the memory tools (Claude Code's MEMORY.md), not the saved context.",
  'Limits: all is this project\'s, except ctx_fork_detect and a memory search with scope "all" (other projects). ' +
    "Delete (ctx_clear, summaries, memories) only when the user asks. ctx_guard_tick is ctx's own hook's, not the " +
    "conversation's.",
].join("\n");

export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: "ctx", title: "ctx", version: deps.version },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } },
  );
  for (const tool of TOOLS) registerTool(server, deps, tool);
  for (const register of RESOURCE_REGISTRARS) register(server, deps);
  for (const register of PROMPT_REGISTRARS) register(server, deps);
  return server;
}
