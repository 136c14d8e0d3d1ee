// ctx_status: what ctx knows about this project (sessions seen, state health), as text and as
// structuredContent that matches the output schema.
import * as z from "zod/mini";
import { formatStatusText, StatusSchema } from "../../core/status/report.ts";
import { defineTool } from "../define-tool.ts";

export const StatusToolInputSchema = {
  recent: z
    .optional(z.int().check(z.minimum(0), z.maximum(50)))
    .check(z.describe("How many recent sessions to list (default 10).")),
};

export const statusTool = defineTool({
  name: "ctx_status",
  title: "ctx status",
  description:
    "Report what ctx holds for this project: the project folder, the Claude Code sessions seen here (start, end, " +
    "source) and any state file that failed to verify. Read-only and fast.",
  input: StatusToolInputSchema,
  output: StatusSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ recent }, deps) => {
    const status = await deps.collectStatus(deps.projectRoot, recent);
    return { text: formatStatusText(status), structured: status };
  },
});
