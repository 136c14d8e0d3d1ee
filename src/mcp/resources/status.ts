// ctx://status: the same report as the ctx_status tool, as a JSON resource.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";

export const STATUS_RESOURCE_URI = "ctx://status";

export function registerStatusResource(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    "status",
    STATUS_RESOURCE_URI,
    {
      title: "ctx status",
      description: "Project folder, sessions seen, state warnings (JSON).",
      mimeType: "application/json",
    },
    async (uri) => {
      const status = await deps.collectStatus(deps.projectRoot);
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(status, null, 2) }] };
    },
  );
}
