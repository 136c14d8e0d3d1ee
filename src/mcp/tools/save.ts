// ctx_save: captures the session's working context now and keeps it as the project's saved state
// (and as a named save when asked), secrets redacted.
import * as z from "zod/mini";
import { saveContext } from "../../store/context/operations.ts";
import { statePath } from "../../store/context/project-state.ts";
import { defineTool } from "../define-tool.ts";
import { contextOpsDeps, countState, resolveToolSession, StateCountsSchema } from "../shared/context-tools.ts";

export const SaveOutputSchema = z.object({
  sessionId: z.string(),
  name: z.nullable(z.string()),
  path: z.string(),
  counts: z.extend(StateCountsSchema, { redactions: z.int() }),
  /** A damaged earlier file moved aside before writing, if there was one. */
  movedAside: z.nullable(z.string()),
});
export type SaveOutput = z.infer<typeof SaveOutputSchema>;

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
  output: SaveOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  handle: async ({ name }, deps) => {
    if (name !== undefined) statePath(deps.projectRoot, name); // rejects a bad name before anything is written
    const session = await resolveToolSession(deps);
    const saved = await saveContext(contextOpsDeps(deps), { ...session, ...(name === undefined ? {} : { name }) });
    const output: SaveOutput = {
      sessionId: session.sessionId,
      name: name ?? null,
      path: saved.path,
      counts: { ...countState(saved.state), redactions: saved.redactions },
      movedAside: saved.movedAside,
    };
    const c = output.counts;
    const text =
      `Saved the context of session ${session.sessionId} to ${saved.path}: ${c.todos} todos, ${c.files} files, ` +
      `${c.decisions} decisions, ${c.conversationMessages} conversation messages, ${c.redactions} secrets redacted.` +
      (saved.movedAside === null ? "" : ` A damaged earlier file was moved to ${saved.movedAside}.`);
    return { text, structured: output };
  },
});
