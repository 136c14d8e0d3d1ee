// createServer(deps): the ctx MCP server with its instructions, tools and resources. No I/O here:
// the transport is attached by the caller (stdio in production, in-memory in tests).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "./deps.ts";
import { RESOURCE_REGISTRARS } from "./resources/index.ts";
import { TOOL_REGISTRARS } from "./tools/index.ts";

// Claude Code truncates server instructions at 2 KB; keep this short and factual.
export const SERVER_INSTRUCTIONS = [
  "ctx keeps this project's working context alive across compactions and sessions.",
  "Its state lives in the project's .ctx/ folder; its hooks record sessions as Claude Code runs them.",
  "Call ctx_status to see what ctx holds for this project (sessions seen, state health).",
  "Resources: ctx://status (JSON).",
].join("\n");

export function createServer(deps: ServerDeps): McpServer {
  const server = new McpServer(
    { name: "ctx", title: "ctx", version: deps.version },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } },
  );
  for (const register of TOOL_REGISTRARS) register(server, deps);
  for (const register of RESOURCE_REGISTRARS) register(server, deps);
  return server;
}
