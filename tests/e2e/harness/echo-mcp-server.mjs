// A stdio MCP server for probing how Claude Code calls MCP tools from hooks (`"type": "mcp_tool"`): its one tool,
// `echo`, appends the arguments it was called with (one JSON line) to $ECHO_MCP_LOG and answers with its `reply`
// argument when that is a string, else nothing. Plain JavaScript, so the real `claude` can start it with `node`.
import { appendFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const log = process.env.ECHO_MCP_LOG;
const server = new Server({ name: "echo", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "echo",
      description: "Records the arguments it is called with.",
      inputSchema: { type: "object", additionalProperties: true },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (log !== undefined) {
    appendFileSync(
      log,
      `${JSON.stringify({ at: Date.now(), tool: request.params.name, args: request.params.arguments ?? null })}\n`,
    );
  }
  const reply = request.params.arguments?.reply;
  return { content: [{ type: "text", text: typeof reply === "string" ? reply : "" }] };
});
await server.connect(new StdioServerTransport());
