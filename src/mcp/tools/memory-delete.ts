// ctx_memory_delete: removes one auto-memory topic file and its MEMORY.md entry.
import * as z from "zod/mini";
import { deleteMemory } from "../../store/memory/memory-store.ts";
import { defineTool } from "../define-tool.ts";
import { MemoryNameSchema, memoryStoreOptions } from "../shared/memory-tools.ts";

export const MemoryDeleteOutputSchema = z.object({ name: z.string(), file: z.string() });

export const memoryDeleteTool = defineTool({
  name: "ctx_memory_delete",
  title: "ctx memory delete",
  description:
    "Delete one auto-memory topic (its file and its MEMORY.md line); only when the user asks or it is wrong.",
  input: { name: MemoryNameSchema },
  output: MemoryDeleteOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  handle: async ({ name }, deps) => {
    const { result } = await deleteMemory(memoryStoreOptions(deps), name);
    return {
      text: `Deleted memory "${result.name}" (${result.file}).`,
      structured: { name: result.name, file: result.file },
    };
  },
});
