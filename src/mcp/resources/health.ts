// ctx://health: the context guard's figures for the session measured most recently, as ctx_health gives them (JSON).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { readHealth } from "../tools/health.ts";

export const HEALTH_RESOURCE_URI = "ctx://health";

export function registerHealthResource(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    "health",
    HEALTH_RESOURCE_URI,
    {
      title: "ctx context health",
      description: "Context guard: tier, tokens used, window, percent, velocity, forecast, last compaction (JSON).",
      mimeType: "application/json",
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/json",
          text: JSON.stringify({ health: readHealth(deps.projectRoot) }, null, 2),
        },
      ],
    }),
  );
}
