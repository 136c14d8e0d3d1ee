// ctx_clear: deletes the project's current saved context. Refuses without `force`, so a model cannot
// clear it by accident; named saves, checkpoints and snapshots are kept either way.
import * as z from "zod/mini";
import { ClearReportSchema, clearContext } from "../../store/context/operations.ts";
import { defineTool } from "../define-tool.ts";
import { contextOpsDeps } from "../shared/context-tools.ts";

export const clearTool = defineTool({
  name: "ctx_clear",
  title: "ctx clear",
  description:
    "Delete this project's current saved context (.ctx/state.ctx). Named saves, checkpoints and snapshots are " +
    "kept. Refuses unless force is true: only clear when the user asks for it.",
  input: {
    force: z.optional(z.boolean()).check(z.describe("Must be true to actually delete; without it nothing is done.")),
  },
  output: ClearReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // The refusal without force is an expected answer, not a fault of the server.
  failureLogLevel: "warn",
  handle: async ({ force }, deps) => {
    const report = await clearContext(contextOpsDeps(deps), { force: force === true });
    const text = report.cleared
      ? `Deleted the current saved context (${report.path}). Named saves, checkpoints and snapshots are kept.`
      : "There was no current saved context to delete.";
    return { text, structured: report };
  },
});
