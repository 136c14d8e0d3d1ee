// What `ctx audit --json`, the `ctx_audit` tool and `ctx status` report of the compaction audits (one schema
// for all), and the block the compact re-injection leads with: the items the summary lost.
import { type AuditItem, type CompactionAudit, countFates } from "./compaction-audit.ts";
import type { AuditListing, AuditReport } from "./report-schema.ts";

export type { AuditListing, AuditReport } from "./report-schema.ts";

export function toAuditListing(audit: CompactionAudit): AuditListing {
  return {
    sessionId: audit.sessionId,
    snapshotId: audit.snapshotId,
    at: audit.at,
    ...countFates(audit.items),
    lostItems: audit.items.filter((item) => item.fate === "lost").map(({ kind, text }) => ({ kind, text })),
  };
}

/** Newest first, by compaction time, then snapshot id (which carries its time). */
export function buildAuditReport(audits: readonly CompactionAudit[]): AuditReport {
  const sorted = [...audits].sort((a, b) => b.at.localeCompare(a.at) || b.snapshotId.localeCompare(a.snapshotId));
  return { compactions: sorted.map(toAuditListing) };
}

/** One line per compaction, then its lost items. */
export function formatAuditText(report: AuditReport): string {
  if (report.compactions.length === 0) {
    return "ctx: no compaction audited in this project yet (each compaction is audited when its summary arrives).\n";
  }
  const lines = [`${report.compactions.length} compaction(s), newest first:`];
  for (const c of report.compactions) {
    lines.push(formatAuditLine(c));
    for (const item of c.lostItems) lines.push(`    lost ${item.kind}: ${firstLine(item.text)}`);
  }
  return `${lines.join("\n")}\n`;
}

export function formatAuditLine(c: AuditListing): string {
  const total = c.kept + c.paraphrased + c.lost;
  const rate = total === 0 ? "" : ` (${Math.round((c.lost / total) * 100)}% lost)`;
  return `  ${c.at}  session ${c.sessionId}  snapshot ${c.snapshotId}: ${c.kept} kept, ${c.paraphrased} paraphrased, ${c.lost} lost${rate}`;
}

const KIND_LABEL: Record<AuditItem["kind"], string> = {
  task: "open task",
  plan: "plan",
  decision: "decision",
  preference: "the user's preference",
  rule: "rule",
  file: "file being edited",
  failure: "recent failure",
};

/**
 * The re-injection's lead: every lost item, most important kinds first, within `maxChars` (items that do
 * not fit are counted instead). "" when nothing was lost.
 */
export function renderLostBlock(items: readonly AuditItem[], maxChars: number): string {
  const lost = items.filter((item) => item.fate === "lost");
  if (lost.length === 0 || maxChars <= 0) return "";
  const header = `## What the compaction summary lost (${lost.length} of ${items.length} items ctx saved; ctx audit)`;
  let text = header;
  let shown = 0;
  for (const item of lost) {
    const line = `\n- ${KIND_LABEL[item.kind]}: ${item.text.replace(/\s*\n\s*/g, " ")}`;
    const more = `\n- … ${lost.length - shown - 1} more (\`ctx audit\` lists them)`;
    if (text.length + line.length + (shown + 1 < lost.length ? more.length : 0) > maxChars) break;
    text += line;
    shown += 1;
  }
  if (shown === 0 && header.length > maxChars) return "";
  if (shown < lost.length) text += `\n- … ${lost.length - shown} more (\`ctx audit\` lists them)`;
  return text.length <= maxChars ? text : "";
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").trim();
}
