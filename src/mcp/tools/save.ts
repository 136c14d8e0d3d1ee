// ctx_save: captures the session's working context now and keeps it as the project's saved state
// (and as a named save when asked), secrets redacted.
import * as z from "zod/mini";
import { SaveReportSchema, saveContext, saveReportOf } from "../../store/context/operations.ts";
import { statePath } from "../../store/context/project-state.ts";
import { defineTool } from "../define-tool.ts";
import { contextOpsDeps, resolveToolSession } from "../shared/context-tools.ts";

export const saveTool = defineTool({
  name: "ctx_save",
  title: "ctx save",
  description:
    "Save this session's working context now: active task, todos, plan, decisions, preferences, files touched " +
    "(with content hashes) and the conversation since the last compaction, secrets redacted. It becomes the " +
    "project's current saved state; `name` also keeps it as a named save that ctx_restore can load later. " +
    "Use before risky changes or when asked to remember where things stand.",
  input: {
    name: z
      .optional(z.string().check(z.minLength(1), z.maxLength(64)))
      .check(z.describe("Also keep it under this name: letters, digits, '.', '_' or '-'.")),
  },
  output: SaveReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  handle: async ({ name }, deps) => {
    if (name !== undefined) statePath(deps.projectRoot, name); // rejects a bad name before anything is written
    const session = await resolveToolSession(deps);
    const saved = await saveContext(contextOpsDeps(deps), { ...session, ...(name === undefined ? {} : { name }) });
    const report = saveReportOf(saved, name ?? null);
    const c = report.counts;
    const text =
      `Saved the context of session ${report.sessionId} to ${saved.path}: ${c.todos} todos, ${c.files} files, ` +
      `${c.decisions} decisions, ${c.conversationMessages} conversation messages, ${report.redactions} secrets redacted.` +
      (saved.movedAside === null ? "" : ` A damaged earlier file was moved to ${saved.movedAside}.`);
    return { text, structured: report };
  },
});
