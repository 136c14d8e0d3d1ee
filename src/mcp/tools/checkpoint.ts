// ctx_checkpoint: a rolling checkpoint of the session's context now (the same kind the hooks take every
// N messages), kept for crash recovery; the oldest beyond config checkpoints.keep are removed.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { checkpointContext } from "../../store/context/operations.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { contextOpsDeps, countState, resolveToolSession, StateCountsSchema } from "../shared/context-tools.ts";

export const CHECKPOINT_TOOL_NAME = "ctx_checkpoint";

export const CheckpointOutputSchema = z.object({ id: z.string(), sessionId: z.string(), counts: StateCountsSchema });
export type CheckpointOutput = z.infer<typeof CheckpointOutputSchema>;

export function registerCheckpointTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    CHECKPOINT_TOOL_NAME,
    {
      title: "ctx checkpoint",
      description:
        "Write a checkpoint of this session's working context now, for recovery after a crash. ctx's hooks " +
        "also take one every few messages and keep the newest few; unlike ctx_save this does not replace the " +
        "project's saved state. Takes no arguments; returns the checkpoint id.",
      // Strict: a no-argument tool should say so when given arguments, not ignore them.
      inputSchema: z.strictObject({}),
      outputSchema: CheckpointOutputSchema.shape,
      annotations: { title: "ctx checkpoint", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async () => {
      try {
        const session = await resolveToolSession(deps);
        const checkpoint = await checkpointContext(contextOpsDeps(deps), session);
        const output: CheckpointOutput = {
          id: checkpoint.id,
          sessionId: session.sessionId,
          counts: countState(checkpoint.state),
        };
        const text = `Checkpoint ${checkpoint.id} written for session ${session.sessionId}.`;
        return { content: [{ type: "text", text }], structuredContent: output };
      } catch (error) {
        deps.logger.error(`${CHECKPOINT_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(CHECKPOINT_TOOL_NAME, error);
      }
    },
  );
}
