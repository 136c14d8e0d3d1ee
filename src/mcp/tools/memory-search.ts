// ctx_memory_search: auto-memory topics holding the query's words (name and description count double).
// scope "all" adds every other project's topics, from the session index (src/mcp/shared/memory-search-all.ts).
import * as z from "zod/mini";
import { MEMORY_RELEVANCE_FLOOR, searchTopics } from "../../core/memory/topics.ts";
import { listMemoryTopics, readMemoryUsage } from "../../store/memory/memory-store.ts";
import { defineTool } from "../define-tool.ts";
import { CrossProjectSearchSchema, searchAllProjects } from "../shared/memory-search-all.ts";
import { memoryStoreOptions, summarizeTopic, TopicSummarySchema } from "../shared/memory-tools.ts";

const MemoryHitSchema = z.object({
  topic: TopicSummarySchema,
  /** The share of the query's words the topic holds, 0 to 1 (its name and description count double). */
  score: z.number(),
  snippet: z.string(),
});

export const MemorySearchOutputSchema = z.object({
  /** Topics holding at least half of the query's words (core/memory/topics.ts MEMORY_RELEVANCE_FLOOR), best first. */
  hits: z.array(MemoryHitSchema),
  /** Topics holding fewer of them: listed apart, so a near miss never passes for an answer. */
  weaker: z.array(MemoryHitSchema),
  /** Only with scope "all": the other projects' topics from the session index. */
  otherProjects: z.optional(CrossProjectSearchSchema),
});

export const memorySearchTool = defineTool({
  name: "ctx_memory_search",
  title: "ctx memory search",
  description:
    "Search the auto-memory topics by words; best matches first, each with its relevance (0-1) and a snippet; topics holding fewer than half of the words come apart as weaker. Read one with ctx_memory_read.",
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
    const all = searchTopics(topics, query).map((hit) => ({
      topic: summarizeTopic(hit.topic, usage.topics[hit.topic.file], false),
      score: hit.score,
      snippet: hit.snippet,
    }));
    const hits = all.filter((hit) => hit.score >= MEMORY_RELEVANCE_FLOOR);
    const weaker = all.filter((hit) => hit.score < MEMORY_RELEVANCE_FLOOR);
    const line = (hit: (typeof all)[number]) =>
      `- ${hit.topic.name} (${hit.topic.type}), relevance ${hit.score.toFixed(2)}: ${hit.topic.description}\n  …${hit.snippet}…`;
    const own = [
      hits.length === 0 ? `No memory matches "${query}" well.` : hits.map(line).join("\n"),
      ...(weaker.length === 0 ? [] : [`Weaker matches (fewer of the query's words):\n${weaker.map(line).join("\n")}`]),
    ].join("\n");
    if (otherProjects === undefined) return { text: own, structured: { hits, weaker } };
    const others =
      otherProjects.note ??
      (otherProjects.hits.length === 0
        ? `No other project's memory matches "${query}".`
        : otherProjects.hits
            .map((hit) => `- ${hit.name} (${hit.type}) [${hit.project}]: ${hit.description}\n  ${hit.path}`)
            .join("\n"));
    const text = `This project:\n${own}\n\nOther projects (read a file with Read):\n${others}`;
    return { text, structured: { hits, weaker, otherProjects } };
  },
});
