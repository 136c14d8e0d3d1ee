// ctx_snapshot_restore: one compaction snapshot's saved state rendered like ctx_restore. It reads only:
// restoring files or the current state from a snapshot is left to the person (`ctx snapshot restore`).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { CtxError } from "../../errors.ts";
import { TIME_ID_PATTERN } from "../../store/snapshots/time-id.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import {
  RestoreOutputSchema,
  RestoreRenderInputShape,
  renderRestore,
  restoreToolResult,
} from "../shared/restore-result.ts";

export const SNAPSHOT_RESTORE_TOOL_NAME = "ctx_snapshot_restore";

export function registerSnapshotRestoreTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    SNAPSHOT_RESTORE_TOOL_NAME,
    {
      title: "ctx snapshot restore",
      description:
        "Read the working context kept in one snapshot (taken before a compaction, or by hand), rendered like " +
        "ctx_restore: task, todos, plan, decisions, preferences, files. Use ctx_snapshot_list for the ids. " +
        "It returns text only; no file and no saved state is changed.",
      inputSchema: {
        id: z
          .string()
          .regex(TIME_ID_PATTERN)
          .describe("A snapshot id from ctx_snapshot_list, e.g. 20261122T031100123Z-3f9a1c."),
        ...RestoreRenderInputShape,
      },
      outputSchema: RestoreOutputSchema.shape,
      annotations: { title: "ctx snapshot restore", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id, mode, sections }) => {
      try {
        const { text, output } = await renderRestore(deps, { kind: "snapshot", id }, { mode, sections });
        if (output.found) return restoreToolResult(text, output);
        throw new CtxError("NOT_FOUND", `no snapshot ${id} in this project`, {
          hint: "ctx_snapshot_list lists the snapshots there are (retention may have pruned old ones)",
        });
      } catch (error) {
        deps.logger.error(`${SNAPSHOT_RESTORE_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(SNAPSHOT_RESTORE_TOOL_NAME, error);
      }
    },
  );
}
