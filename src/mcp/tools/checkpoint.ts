// ctx_checkpoint: a rolling checkpoint of the session's context now (the same kind the hooks take every
// N messages), kept for crash recovery; the oldest beyond config checkpoints.keep are removed.
import * as z from "zod/mini";
import { CheckpointReportSchema, checkpointContext, checkpointReportOf } from "../../store/context/operations.ts";
import { defineTool } from "../define-tool.ts";
import { contextOpsDeps, resolveToolSession } from "../shared/context-tools.ts";

export const checkpointTool = defineTool({
  name: "ctx_checkpoint",
  title: "ctx checkpoint",
  description:
    "Write a checkpoint of this session's working context now, for recovery after a crash. ctx's hooks " +
    "also take one every few messages and keep the newest few; unlike ctx_save this does not replace the " +
    "project's saved state. Takes no arguments; returns the checkpoint id.",
  // Strict: a no-argument tool should say so when given arguments, not ignore them.
  input: z.strictObject({}),
  output: CheckpointReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  handle: async (_args, deps) => {
    const session = await resolveToolSession(deps);
    const report = checkpointReportOf(await checkpointContext(contextOpsDeps(deps), session));
    return { text: `Checkpoint ${report.id} written for session ${report.sessionId}.`, structured: report };
  },
});
