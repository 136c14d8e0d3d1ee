// ctx_audit: what each compaction's summary lost of what ctx saved before it, newest first; the same schema
// as `ctx audit --json` (core/audit/report.ts).
import * as z from "zod/mini";
import { formatAuditText } from "../../core/audit/report.ts";
import { AuditReportSchema } from "../../core/audit/report-schema.ts";
import { readAuditReport } from "../../store/audit/audit-store.ts";
import { defineTool } from "../define-tool.ts";

export const auditTool = defineTool({
  name: "ctx_audit",
  title: "ctx audit",
  description:
    "List this project's compactions, newest first, with how many of the items ctx saved before each one " +
    "(open tasks, the plan and its approval, decisions, the user's stated preferences, CLAUDE.md (ENFORCED)/" +
    "(CRITICAL) rules, files being edited, recent failures) the compaction summary kept, paraphrased or lost, " +
    "and the lost items themselves. Use it after a compaction to see what the summary dropped.",
  input: {
    session: z
      .optional(z.string().check(z.regex(/^[A-Za-z0-9._-]{1,128}$/)))
      .check(z.describe("Only this Claude Code session's compactions (default: all in the project).")),
  },
  output: AuditReportSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ session }, deps) => {
    const report = await readAuditReport(deps.projectRoot, session);
    return { text: formatAuditText(report), structured: report };
  },
});
