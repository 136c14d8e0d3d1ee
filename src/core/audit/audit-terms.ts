// The compaction audit's words: what kinds of item it audits, the fates an item can meet, where the summary came
// from. Shared by the audit (./compaction-audit.ts) and the schemas of what it writes and reports
// (./compaction-audit-schema.ts, ./report-schema.ts), which the audit itself does not load.
export const AUDIT_KINDS = ["task", "plan", "decision", "preference", "rule", "file", "failure"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_FATES = ["kept", "paraphrased", "lost"] as const;
export const AUDIT_SUMMARY_SOURCES = ["post-compact", "transcript"] as const;
