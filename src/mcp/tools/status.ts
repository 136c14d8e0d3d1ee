// ctx_status: what ctx knows about this project (sessions seen, state health), as text and as
// structuredContent that matches the output schema.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { formatStatusText, StatusSchema } from "../../core/status/report.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";

export const STATUS_TOOL_NAME = "ctx_status";

export const StatusToolInputSchema = {
  recent: z.int().min(0).max(50).optional().describe("How many recent sessions to list (default 10)."),
};

export function registerStatusTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    STATUS_TOOL_NAME,
    {
      title: "ctx status",
      description:
        "Report what ctx holds for this project: the project folder, the Claude Code sessions seen here (start, end, " +
        "source) and any state file that failed to verify. Read-only and fast.",
      inputSchema: StatusToolInputSchema,
      outputSchema: StatusSchema.shape,
      annotations: { title: "ctx status", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ recent }) => {
      try {
        const status = await deps.collectStatus(deps.projectRoot, recent);
        return { content: [{ type: "text", text: formatStatusText(status) }], structuredContent: status };
      } catch (error) {
        deps.logger.error(`${STATUS_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(STATUS_TOOL_NAME, error);
      }
    },
  );
}
