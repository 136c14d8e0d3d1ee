// Whether there is a compaction audit to lead the re-injection with, found cheaply (a stored record's lstat,
// or a byte search of the transcript's tail) before SessionStart or UserPromptSubmit loads the audit and
// rendering code: with Claude Code 2.1.330 SessionStart `compact` runs before the summary exists, and then
// this is all it costs.
import type { CompactionAudit } from "../../core/audit/compaction-audit.ts";
import type { Injection } from "../../core/context/injection.ts";
import { readAudit } from "../../store/audit/audit-store.ts";
import { readFreshCompactSummary } from "../../store/transcript/compact-summary.ts";

export interface SummaryText {
  text: string;
  source: CompactionAudit["summarySource"];
  at: string | null;
}

export type AuditSource = { kind: "stored"; audit: CompactionAudit } | { kind: "summary"; summary: SummaryText };

export async function findAuditSource(
  pending: Injection,
  transcriptPath: string,
  projectRoot: string,
): Promise<AuditSource | null> {
  if (pending.snapshotId === null) return null;
  const stored = await readAudit(projectRoot, pending.snapshotId);
  if (stored !== null && stored.sessionId === pending.sessionId) return { kind: "stored", audit: stored };
  const summary = await readFreshCompactSummary(transcriptPath, pending.createdAt);
  if (summary === null) return null;
  return { kind: "summary", summary: { text: summary.text, source: "transcript", at: summary.timestamp } };
}
