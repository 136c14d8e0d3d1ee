// ctx_memory_list: the auto-memory topics, most used first, with whether MEMORY.md lists each.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { orderByUse } from "../../core/memory/topics.ts";
import { listMemoryTopics, readMemoryUsage } from "../../store/memory/memory-store.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../shared/memory-tools.ts";

export const MEMORY_LIST_TOOL_NAME = "ctx_memory_list";

export const MemoryListOutputSchema = z.object({ dir: z.string(), topics: z.array(TopicSummarySchema) });

export function registerMemoryListTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    MEMORY_LIST_TOOL_NAME,
    {
      title: "ctx memory list",
      description: "List the auto-memory topics (name, type, description, uses), most used first.",
      outputSchema: MemoryListOutputSchema.shape,
      annotations: { title: "ctx memory list", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => {
      try {
        const { dir } = memoryStoreOptions(deps);
        const [topics, usage, index] = await Promise.all([
          listMemoryTopics(dir),
          readMemoryUsage(dir),
          readFile(join(dir, "MEMORY.md"), "utf8").catch(() => ""),
        ]);
        const listed = orderByUse(topics, usage).map((topic) =>
          summarizeTopic(topic, usage.topics[topic.file], index.includes(`](${topic.file})`)),
        );
        const text =
          listed.length === 0
            ? `No memories yet in ${dir}.`
            : [
                `${listed.length} memories in ${dir}, most used first:`,
                ...listed.map((t) => `- ${t.name} (${t.type}, ${t.uses} uses): ${t.description}`),
              ].join("\n");
        return { content: [{ type: "text", text }], structuredContent: { dir, topics: listed } };
      } catch (error) {
        deps.logger.error(`${MEMORY_LIST_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(MEMORY_LIST_TOOL_NAME, error);
      }
    },
  );
}
