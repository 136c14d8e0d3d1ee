// ctx_memory_read: one memory's content and frontmatter; each read counts as a use (MEMORY.md lists the
// most used topics first).
import * as z from "zod/mini";
import { readMemory } from "../../store/memory/memory-store.ts";
import { defineTool } from "../define-tool.ts";
import { MemoryNameSchema, memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../shared/memory-tools.ts";

export const MemoryReadOutputSchema = z.object({ topic: TopicSummarySchema, content: z.string() });

export const memoryReadTool = defineTool({
  name: "ctx_memory_read",
  title: "ctx memory read",
  description: "Read one auto-memory topic by name (as listed by ctx_memory_list or in MEMORY.md).",
  input: { name: MemoryNameSchema },
  output: MemoryReadOutputSchema,
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  handle: async ({ name }, deps) => {
    const { result, index } = await readMemory(memoryStoreOptions(deps), name);
    const topic = summarizeTopic(result.topic, result.use, index.listed.includes(result.topic.file));
    const text = `# ${topic.name} (${topic.type})\n${topic.description}\n\n${result.topic.content}`;
    return { text, structured: { topic, content: result.topic.content } };
  },
});
