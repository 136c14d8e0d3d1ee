// ctx_memory_delete: removes one auto-memory topic file and its MEMORY.md entry.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { deleteMemory } from "../../store/memory/memory-store.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { MemoryNameSchema, memoryStoreOptions } from "../shared/memory-tools.ts";

export const MEMORY_DELETE_TOOL_NAME = "ctx_memory_delete";

export const MemoryDeleteOutputSchema = z.object({ name: z.string(), file: z.string() });

export function registerMemoryDeleteTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    MEMORY_DELETE_TOOL_NAME,
    {
      title: "ctx memory delete",
      description:
        "Delete one auto-memory topic (its file and its MEMORY.md line); only when the user asks or it is wrong.",
      inputSchema: { name: MemoryNameSchema },
      outputSchema: MemoryDeleteOutputSchema.shape,
      annotations: { title: "ctx memory delete", readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    async ({ name }) => {
      try {
        const { result } = await deleteMemory(memoryStoreOptions(deps), name);
        return {
          content: [{ type: "text", text: `Deleted memory "${result.name}" (${result.file}).` }],
          structuredContent: { name: result.name, file: result.file },
        };
      } catch (error) {
        deps.logger.error(`${MEMORY_DELETE_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(MEMORY_DELETE_TOOL_NAME, error);
      }
    },
  );
}
