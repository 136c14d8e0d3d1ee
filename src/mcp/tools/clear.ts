// ctx_clear: deletes the project's current saved context. Refuses without `force`, so a model cannot
// clear it by accident; named saves, checkpoints and snapshots are kept either way.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { clearContext } from "../../store/context/operations.ts";
import { statePath } from "../../store/context/project-state.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { contextOpsDeps } from "../shared/context-tools.ts";

export const CLEAR_TOOL_NAME = "ctx_clear";

export const ClearOutputSchema = z.object({ cleared: z.boolean(), path: z.string() });

export function registerClearTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    CLEAR_TOOL_NAME,
    {
      title: "ctx clear",
      description:
        "Delete this project's current saved context (.ctx/state.ctx). Named saves, checkpoints and snapshots are " +
        "kept. Refuses unless force is true: only clear when the user asks for it.",
      inputSchema: {
        force: z.boolean().optional().describe("Must be true to actually delete; without it nothing is done."),
      },
      outputSchema: ClearOutputSchema.shape,
      annotations: {
        title: "ctx clear",
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ force }) => {
      try {
        const { cleared } = await clearContext(contextOpsDeps(deps), { force: force === true });
        const path = statePath(deps.projectRoot);
        const text = cleared
          ? `Deleted the current saved context (${path}). Named saves, checkpoints and snapshots are kept.`
          : "There was no current saved context to delete.";
        return { content: [{ type: "text", text }], structuredContent: { cleared, path } };
      } catch (error) {
        deps.logger.warn(`${CLEAR_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(CLEAR_TOOL_NAME, error);
      }
    },
  );
}
