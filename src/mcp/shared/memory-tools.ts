// What the ctx_memory_* tools share: the memory folder and its limits from the server's deps, and the
// schemas of a topic and of the index as the tools report them.
import * as z from "zod/mini";
import { MEMORY_TYPES, type MemoryTopic } from "../../core/memory/topics.ts";
import { type MemoryStoreOptions, memoryDirFor } from "../../store/memory/memory-store.ts";
import type { ServerDeps } from "../deps.ts";

export function memoryStoreOptions(deps: ServerDeps): MemoryStoreOptions {
  return {
    dir: deps.memoryDir ?? memoryDirFor(deps.projectRoot, {}, deps.config),
    limits: { maxLines: deps.config.memory.maxIndexLines, maxBytes: deps.config.memory.maxIndexBytes },
    allowlist: deps.config.redaction.allowlist,
    now: deps.now,
  };
}

export const MemoryNameSchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(80),
    z.describe('The memory\'s name, e.g. "retry policy"; its file is the name in snake_case (.md).'),
  );

export const MemoryTypeInputSchema = z
  .enum(MEMORY_TYPES)
  .check(
    z.describe("user (who the user is), feedback (how they want you to work), project (facts), reference (pointers)."),
  );

export const TopicSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  type: z.string(),
  file: z.string(),
  uses: z.int(),
  lastUsed: z.nullable(z.string()),
  inIndex: z.boolean(),
});
export type TopicSummary = z.infer<typeof TopicSummarySchema>;

export const IndexReportSchema = z.object({
  path: z.string(),
  lines: z.int(),
  bytes: z.int(),
  maxLines: z.int(),
  maxBytes: z.int(),
  /** Topic files left out of MEMORY.md to keep it within the limits (the files stay). */
  trimmed: z.array(z.string()),
});

export function summarizeTopic(
  topic: MemoryTopic,
  use: { uses: number; lastUsed: string | null } | undefined,
  inIndex: boolean,
): TopicSummary {
  return {
    name: topic.name,
    description: topic.description,
    type: topic.type,
    file: topic.file,
    uses: use?.uses ?? 0,
    lastUsed: use?.lastUsed ?? null,
    inIndex,
  };
}
