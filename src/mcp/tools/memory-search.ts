// ctx_memory_search: auto-memory topics holding the query's words (name and description count double).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { searchTopics } from "../../core/memory.ts";
import { listMemoryTopics, readMemoryUsage } from "../../store/memory-store.ts";
import type { ServerDeps } from "../deps.ts";
import { memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../memory-context.ts";
import { toolErrorResult } from "../result.ts";

export const MEMORY_SEARCH_TOOL_NAME = "ctx_memory_search";

export const MemorySearchOutputSchema = z.object({
  hits: z.array(z.object({ topic: TopicSummarySchema, score: z.int(), snippet: z.string() })),
});

export function registerMemorySearchTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    MEMORY_SEARCH_TOOL_NAME,
    {
      title: "ctx memory search",
      description:
        "Search the auto-memory topics by words; best matches first, with a snippet. Read one with ctx_memory_read.",
      inputSchema: { query: z.string().min(1).max(500).describe("Words to look for.") },
      outputSchema: MemorySearchOutputSchema.shape,
      annotations: { title: "ctx memory search", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      try {
        const { dir } = memoryStoreOptions(deps);
        const [topics, usage] = await Promise.all([listMemoryTopics(dir), readMemoryUsage(dir)]);
        const hits = searchTopics(topics, query).map((hit) => ({
          topic: summarizeTopic(hit.topic, usage.topics[hit.topic.file], false),
          score: hit.score,
          snippet: hit.snippet,
        }));
        const text =
          hits.length === 0
            ? `No memory matches "${query}".`
            : hits
                .map((hit) => `- ${hit.topic.name} (${hit.topic.type}): ${hit.topic.description}\n  …${hit.snippet}…`)
                .join("\n");
        return { content: [{ type: "text", text }], structuredContent: { hits } };
      } catch (error) {
        deps.logger.error(`${MEMORY_SEARCH_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(MEMORY_SEARCH_TOOL_NAME, error);
      }
    },
  );
}
