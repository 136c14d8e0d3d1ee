// ctx_memory_write: keeps a memory as a topic file in Claude Code's auto-memory folder and lists it in
// MEMORY.md (which Claude Code loads at every session start), secrets redacted.
import { join } from "node:path";
import * as z from "zod/mini";
import { writeMemory } from "../../store/memory/memory-store.ts";
import { defineTool } from "../define-tool.ts";
import {
  IndexReportSchema,
  MemoryNameSchema,
  MemoryTypeInputSchema,
  memoryStoreOptions,
} from "../shared/memory-tools.ts";

export const MemoryWriteOutputSchema = z.object({
  path: z.string(),
  created: z.boolean(),
  redactions: z.int(),
  inIndex: z.boolean(),
  index: IndexReportSchema,
});

export const memoryWriteTool = defineTool({
  name: "ctx_memory_write",
  title: "ctx memory write",
  description:
    "Remember something across sessions: writes (or replaces) a topic file with frontmatter in Claude Code's " +
    "auto-memory folder and lists it in MEMORY.md, which Claude Code loads at each session start (most used " +
    "topics first; MEMORY.md is kept under 200 lines / 25 KB). Secrets are redacted.",
  input: {
    name: MemoryNameSchema,
    description: z
      .string()
      .check(z.minLength(1), z.maxLength(300), z.describe("One line: what this memory is about (shown in MEMORY.md).")),
    type: MemoryTypeInputSchema,
    content: z.string().check(z.minLength(1), z.maxLength(100_000), z.describe("The memory itself, Markdown.")),
  },
  output: MemoryWriteOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  handle: async (input, deps) => {
    const options = memoryStoreOptions(deps);
    const { result, index } = await writeMemory(options, input);
    const inIndex = index.listed.includes(result.file);
    const output = {
      path: result.path,
      created: result.created,
      redactions: result.redactions,
      inIndex,
      index: {
        path: join(options.dir, "MEMORY.md"),
        lines: index.lines,
        bytes: index.bytes,
        maxLines: options.limits.maxLines,
        maxBytes: options.limits.maxBytes,
        trimmed: index.trimmed,
      },
    };
    const text =
      `${result.created ? "Wrote" : "Replaced"} memory "${input.name}" at ${result.path}` +
      `${inIndex ? "; listed in MEMORY.md" : "; not in MEMORY.md (index full; ctx_memory_read still finds it)"}.` +
      (result.redactions > 0 ? ` ${result.redactions} secret(s) redacted.` : "");
    return { text, structured: output };
  },
});
