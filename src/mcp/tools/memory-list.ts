// ctx_memory_list: the auto-memory topics, most used first, with whether MEMORY.md lists each.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import { orderByUse } from "../../core/memory/topics.ts";
import { listMemoryTopics, readMemoryUsage } from "../../store/memory/memory-store.ts";
import { defineTool } from "../define-tool.ts";
import { memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../shared/memory-tools.ts";

export const MemoryListOutputSchema = z.object({ dir: z.string(), topics: z.array(TopicSummarySchema) });

export const memoryListTool = defineTool({
  name: "ctx_memory_list",
  title: "ctx memory list",
  description: "List the auto-memory topics (name, type, description, uses), most used first.",
  output: MemoryListOutputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async (_args, deps) => {
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
    return { text, structured: { dir, topics: listed } };
  },
});
