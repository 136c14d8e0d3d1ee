// ctx_restore: the project's saved context (or a named save) as text Claude can take in, within Claude
// Code's MCP output limits. Nothing saved is an ordinary answer, not an error.
import * as z from "zod/mini";
import { RestoreReportSchema } from "../../store/context/restore.ts";
import { defineTool } from "../define-tool.ts";
import { RestoreRenderInputShape, renderRestore } from "../shared/restore-result.ts";

export const restoreTool = defineTool({
  name: "ctx_restore",
  title: "ctx restore",
  description:
    "Read back the saved working context of this project (the state ctx_save or ctx's hooks last saved, or a " +
    "named save): active task, todos, plan, decisions, the user's preferences, files touched, recent tool " +
    "failures and, in full mode, the conversation since the last compaction. Use it to pick up where a " +
    "previous session or compaction left off. It returns text; it changes no files.",
  input: {
    name: z
      .optional(z.string().check(z.minLength(1), z.maxLength(64)))
      .check(z.describe("A named save (from ctx_save {name}); default: the current state.")),
    ...RestoreRenderInputShape,
  },
  output: RestoreReportSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ name, mode, sections }, deps) => {
    const source = name === undefined ? { kind: "current" as const } : { kind: "save" as const, name };
    const absent =
      name === undefined
        ? "ctx: no context is saved for this project yet. ctx_save saves the current session's context."
        : `ctx: there is no save named "${name}" in this project. ctx_save {name} creates one.`;
    const { text, report } = await renderRestore(deps, source, { mode, sections });
    return { text: report.found ? text : absent, structured: report };
  },
});
