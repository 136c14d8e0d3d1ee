// ctx_restore: the saved context (current or a named save) as text Claude can take in, within Claude
// Code's MCP output limits. Nothing saved is an ordinary answer, not an error.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import {
  RestoreOutputSchema,
  RestoreRenderInputShape,
  renderRestore,
  restoreToolResult,
} from "../shared/restore-result.ts";

export const RESTORE_TOOL_NAME = "ctx_restore";

export function registerRestoreTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    RESTORE_TOOL_NAME,
    {
      title: "ctx restore",
      description:
        "Read back the saved working context of this project (the state ctx_save or ctx's hooks last saved, or a " +
        "named save): active task, todos, plan, decisions, the user's preferences, files touched, recent tool " +
        "failures and, in full mode, the conversation since the last compaction. Use it to pick up where a " +
        "previous session or compaction left off. It returns text; it changes no files.",
      inputSchema: {
        name: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe("A named save (from ctx_save {name}); default: the current state."),
        ...RestoreRenderInputShape,
      },
      outputSchema: RestoreOutputSchema.shape,
      annotations: { title: "ctx restore", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ name, mode, sections }) => {
      try {
        const source = name === undefined ? { kind: "current" as const } : { kind: "save" as const, name };
        const absent =
          name === undefined
            ? "ctx: no context is saved for this project yet. ctx_save saves the current session's context."
            : `ctx: there is no save named "${name}" in this project. ctx_save {name} creates one.`;
        const { text, output } = await renderRestore(deps, source, { mode, sections });
        return restoreToolResult(output.found ? text : absent, output);
      } catch (error) {
        deps.logger.error(`${RESTORE_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(RESTORE_TOOL_NAME, error);
      }
    },
  );
}
