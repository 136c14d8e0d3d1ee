// ctx_memory_read: one memory's content and frontmatter; each read counts as a use (MEMORY.md lists the
// most used topics first).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { readMemory } from "../../store/memory/memory-store.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { MemoryNameSchema, memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../shared/memory-tools.ts";

export const MEMORY_READ_TOOL_NAME = "ctx_memory_read";

export const MemoryReadOutputSchema = z.object({ topic: TopicSummarySchema, content: z.string() });

export function registerMemoryReadTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    MEMORY_READ_TOOL_NAME,
    {
      title: "ctx memory read",
      description: "Read one auto-memory topic by name (as listed by ctx_memory_list or in MEMORY.md).",
      inputSchema: { name: MemoryNameSchema },
      outputSchema: MemoryReadOutputSchema.shape,
      annotations: { title: "ctx memory read", readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ name }) => {
      try {
        const { result, index } = await readMemory(memoryStoreOptions(deps), name);
        const topic = summarizeTopic(result.topic, result.use, index.listed.includes(result.topic.file));
        const text = `# ${topic.name} (${topic.type})\n${topic.description}\n\n${result.topic.content}`;
        return { content: [{ type: "text", text }], structuredContent: { topic, content: result.topic.content } };
      } catch (error) {
        deps.logger.error(`${MEMORY_READ_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(MEMORY_READ_TOOL_NAME, error);
      }
    },
  );
}
