// ctx_clear_summaries: deletes stored per-message summaries (this session's, or every session's of the
// project with `all`); they are made again when a summary is next needed. The /clear-summaries command.
import * as z from "zod/mini";
import { clearSidecars } from "../../store/summaries/sidecar-store.ts";
import { SummariesClearReportSchema } from "../../summaries/operations.ts";
import { defineTool } from "../define-tool.ts";
import { resolveSummariesToolSession, SessionArgument } from "../shared/summaries-tools.ts";

export const clearSummariesTool = defineTool({
  name: "ctx_clear_summaries",
  title: "ctx clear summaries",
  description:
    "Delete the stored per-message summaries of this session (or of `session`, or with `all: true` of every " +
    "session of this project). Only ctx's summaries files are deleted, never a transcript or the saved " +
    "context; summaries are made again when next needed. Returns the files removed.",
  input: {
    session: SessionArgument,
    all: z.optional(z.boolean()).check(z.describe("Every session of this project (default: this session only).")),
  },
  output: SummariesClearReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ session, all }, deps) => {
    const sessionId = all === true ? undefined : (await resolveSummariesToolSession(deps, session)).sessionId;
    const removed = await clearSidecars(deps.projectRoot, sessionId);
    const text =
      removed.length === 0
        ? "ctx: no stored summaries to clear."
        : `Cleared ${removed.length} summaries file(s):\n${removed.join("\n")}`;
    return { text, structured: { removed } };
  },
});
