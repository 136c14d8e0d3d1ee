// ctx_save: captures the session's working context now and keeps it as the project's saved state
// (and as a named save when asked), secrets redacted.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { saveContext } from "../../store/context/operations.ts";
import { statePath } from "../../store/context/project-state.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { contextOpsDeps, countState, resolveToolSession, StateCountsSchema } from "../shared/context-tools.ts";

export const SAVE_TOOL_NAME = "ctx_save";

export const SaveOutputSchema = z.object({
  sessionId: z.string(),
  name: z.string().nullable(),
  path: z.string(),
  counts: StateCountsSchema.extend({ redactions: z.int() }),
  /** A damaged earlier file moved aside before writing, if there was one. */
  movedAside: z.string().nullable(),
});
export type SaveOutput = z.infer<typeof SaveOutputSchema>;

export function registerSaveTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    SAVE_TOOL_NAME,
    {
      title: "ctx save",
      description:
        "Save this session's working context now: active task, todos, plan, decisions, preferences, files touched " +
        "(with content hashes) and the conversation since the last compaction, secrets redacted. It becomes the " +
        "project's current saved state; `name` also keeps it as a named save that ctx_restore can load later. " +
        "Use before risky changes or when asked to remember where things stand.",
      inputSchema: {
        name: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe("Also keep it under this name: letters, digits, '.', '_' or '-'."),
      },
      outputSchema: SaveOutputSchema.shape,
      annotations: { title: "ctx save", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ name }) => {
      try {
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
        return { content: [{ type: "text", text }], structuredContent: output };
      } catch (error) {
        deps.logger.error(`${SAVE_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(SAVE_TOOL_NAME, error);
      }
    },
  );
}
