// ctx_memory_search: auto-memory topics holding the query's words (name and description count double).
// scope "all" adds every other project's topics, from the session index (src/mcp/shared/memory-search-all.ts).
import * as z from "zod/mini";
import { searchTopics } from "../../core/memory/topics.ts";
import { listMemoryTopics, readMemoryUsage } from "../../store/memory/memory-store.ts";
import { defineTool } from "../define-tool.ts";
import { CrossProjectSearchSchema, searchAllProjects } from "../shared/memory-search-all.ts";
import { memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../shared/memory-tools.ts";

export const MemorySearchOutputSchema = z.object({
  hits: z.array(z.object({ topic: TopicSummarySchema, score: z.int(), snippet: z.string() })),
  /** Only with scope "all": the other projects' topics from the session index. */
  otherProjects: z.optional(CrossProjectSearchSchema),
});

export const memorySearchTool = defineTool({
  name: "ctx_memory_search",
  title: "ctx memory search",
  description:
    "Search the auto-memory topics by words; best matches first, with a snippet. Read one with ctx_memory_read.",
  input: {
    query: z.string().check(z.minLength(1), z.maxLength(500), z.describe("Words to look for.")),
    scope: z
      .optional(z.enum(["project", "all"]))
      .check(z.describe('"project" (default): this project\'s memory; "all": every project\'s too (session index).')),
  },
  output: MemorySearchOutputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ query, scope }, deps) => {
    const { dir } = memoryStoreOptions(deps);
    const otherProjects = scope === "all" ? searchAllProjects(deps.env ?? process.env, query, dir) : undefined;
    const [topics, usage] = await Promise.all([listMemoryTopics(dir), readMemoryUsage(dir)]);
    const hits = searchTopics(topics, query).map((hit) => ({
      topic: summarizeTopic(hit.topic, usage.topics[hit.topic.file], false),
      score: hit.score,
      snippet: hit.snippet,
    }));
    const own =
      hits.length === 0
        ? `No memory matches "${query}".`
        : hits
            .map((hit) => `- ${hit.topic.name} (${hit.topic.type}): ${hit.topic.description}\n  …${hit.snippet}…`)
            .join("\n");
    if (otherProjects === undefined) return { text: own, structured: { hits } };
    const others =
      otherProjects.note ??
      (otherProjects.hits.length === 0
        ? `No other project's memory matches "${query}".`
        : otherProjects.hits
            .map((hit) => `- ${hit.name} (${hit.type}) [${hit.project}]: ${hit.description}\n  ${hit.path}`)
            .join("\n"));
    const text = `This project:\n${own}\n\nOther projects (read a file with Read):\n${others}`;
    return { text, structured: { hits, otherProjects } };
  },
});
