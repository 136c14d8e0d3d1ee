// What `ctx audit --json`, the `ctx_audit` tool and `ctx status` report of the compaction audits (./report.ts
// builds it): on its own, so that SessionStart, which renders the lost items, loads no zod.
import * as z from "zod/mini";
import { AUDIT_KINDS } from "./audit-terms.ts";

export const AuditListingSchema = z.object({
  sessionId: z.string(),
  snapshotId: z.string(),
  at: z.string(),
  kept: z.int(),
  paraphrased: z.int(),
  lost: z.int(),
  lostItems: z.array(z.object({ kind: z.enum(AUDIT_KINDS), text: z.string() })),
});
export type AuditListing = z.infer<typeof AuditListingSchema>;

export const AuditReportSchema = z.object({ compactions: z.array(AuditListingSchema) });
export type AuditReport = z.infer<typeof AuditReportSchema>;
