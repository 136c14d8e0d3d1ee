// createServer(deps): the ctx MCP server with its instructions, tools and resources. No I/O here:
// the transport is attached by the caller (stdio in production, in-memory in tests).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerTool } from "./define-tool.ts";
import type { ServerDeps } from "./deps.ts";
import { PROMPT_REGISTRARS } from "./prompts/registry.ts";
import { RESOURCE_REGISTRARS } from "./resources/registry.ts";
import { TOOLS } from "./tools/registry.ts";

// Claude Code truncates server instructions at 2 KB; keep this short and factual.
export const SERVER_INSTRUCTIONS = [
  "ctx keeps this project's working context alive across compactions and sessions.",
  "Its state lives in the project's .ctx/ folder; its hooks record sessions as Claude Code runs them.",
  "Tools:",
  "- ctx_status: what ctx holds for this project (sessions seen, state health).",
  "- ctx_save {name?}: save this session's context now (task, todos, plan, decisions, files), secrets redacted.",
  "- ctx_restore {name?, mode?, sections?}: the saved context as text; summary by default, full adds the conversation.",
  "- ctx_diff {name?}: tracked files modified, deleted or added since the save.",
  "- ctx_checkpoint: a crash-recovery checkpoint now.",
  "- ctx_clear {force}: delete the current saved context; only when the user asks.",
  "- ctx_snapshot_list {verbose?}: snapshots taken before compactions.",
  "- ctx_snapshot_restore {id}: one snapshot's context as text (changes nothing).",
  "- ctx_fork_detect {query, project?, limit?, since?, until?}: past sessions closest to a task, with fork commands.",
  "- ctx_budget {op: list|add|pin|unpin|evict|estimate|assemble}: items kept in view across compactions.",
  "- ctx_memory_write {name, description, type, content}: remember across sessions (Claude Code's MEMORY.md).",
  "- ctx_memory_read {name}, ctx_memory_list, ctx_memory_search {query, scope?}, ctx_memory_delete {name}: the memories",
  '  (scope "all": every project\'s memory, from the session index).',
  "- ctx_summarize {session?, from?}: per-message summaries (kept); returns recent verbatim, older summarised.",
  "- ctx_context_stats {session?}: tokens per summary layer and the compression ratio.",
  "- ctx_clear_summaries {session?, all?}: delete stored summaries (made again when needed).",
  "- ctx_health {session_id?}: context-window tier, tokens used, velocity, tool calls left before auto-compaction.",
  "- ctx_audit {session?}: what each compaction's summary lost of the tasks, plan, decisions, rules and files saved.",
  "- ctx_guard_tick: for ctx's own hook only.",
  "Resources: ctx://status (JSON), ctx://context (full saved context), ctx://snapshots, ctx://snapshots/{id}, ctx://health (JSON).",
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
