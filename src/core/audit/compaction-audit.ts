// The compaction-loss audit (pure): what ctx saved at PreCompact (open tasks, the plan and whether it was
// approved, decisions, stated preferences, the (ENFORCED)/(CRITICAL) rules, the files being edited, the last
// failures) set against the summary Claude Code wrote, each item kept, paraphrased or lost by the rules
// check's matching (core/rules/check.ts). Files are matched by path: the project-relative path (or the
// absolute one) in the summary is kept, the file name alone paraphrased. One record per compaction.
import type { ContextState } from "../context/schema.ts";
import { fateInSummary, prepareSummary } from "../rules/check.ts";
import type { Rule } from "../rules/claude-md.ts";

import type { AuditKind } from "./audit-terms.ts";
import type { AuditItem } from "./compaction-audit-schema.ts";

export { AUDIT_FATES, AUDIT_KINDS, AUDIT_SUMMARY_SOURCES, type AuditKind } from "./audit-terms.ts";
export type { AuditItem, CompactionAudit } from "./compaction-audit-schema.ts";

/** Files with writes, the newest this many, count as "being edited". */
export const AUDITED_FILES = 10;
/** The newest tool failures audited. */
export const AUDITED_FAILURES = 3;
const ITEM_CHARS = 300;

export interface AuditInput {
  state: ContextState;
  rules: readonly Rule[];
  summary: string;
  threshold: number;
}

/** The items ctx saved that a compaction summary should carry, in the order the re-injection lists them. */
export function auditedItems(state: ContextState, rules: readonly Rule[]): { kind: AuditKind; text: string }[] {
  const items: { kind: AuditKind; text: string }[] = [];
  for (const todo of state.todos?.items ?? []) {
    if (todo.status !== "completed") items.push({ kind: "task", text: clip(todo.content) });
  }
  // The person's last request is the open task when no task list says more.
  const lastPrompt = [...state.conversation].reverse().find((message) => message.kind === "prompt");
  if (lastPrompt !== undefined && lastPrompt.text.trim() !== "") {
    items.push({ kind: "task", text: clip(`last request: ${lastPrompt.text}`) });
  }
  const plan = state.plan;
  if (plan !== null && (plan.text !== null || plan.filePath !== null)) {
    const status = plan.approved === true ? "approved" : plan.approved === false ? "rejected" : "not yet approved";
    const title = planTitle(plan.text) ?? plan.filePath ?? "";
    items.push({ kind: "plan", text: `${clip(title)} (${status})` });
  }
  for (const rule of rules) items.push({ kind: "rule", text: rule.text });
  for (const decision of state.decisions) items.push({ kind: "decision", text: clip(decision.text) });
  for (const preference of state.preferences) items.push({ kind: "preference", text: clip(preference.text) });
  const edited = state.files.filter((file) => file.writes > 0).slice(-AUDITED_FILES);
  for (const file of edited.reverse()) items.push({ kind: "file", text: relativePath(file.path, state.projectRoot) });
  for (const failure of state.tools.failures.slice(-AUDITED_FAILURES)) {
    items.push({ kind: "failure", text: clip(`${failure.tool}: ${failure.message}`) });
  }
  return items;
}

export function auditCompaction(input: AuditInput): AuditItem[] {
  const prepared = prepareSummary(input.summary);
  return auditedItems(input.state, input.rules).map((item) => {
    if (item.kind === "file") return { ...item, ...fileFate(item.text, input.state.projectRoot, input.summary) };
    // A plan is matched on its title; its status words are ctx's, not the plan's.
    const matched =
      item.kind === "plan" ? item.text.replace(/ \([^)]*\)$/, "") : item.text.replace(/^last request: /, "");
    return { ...item, ...fateInSummary(matched, prepared, input.threshold) };
  });
}

export interface AuditCounts {
  kept: number;
  paraphrased: number;
  lost: number;
}

export function countFates(items: readonly AuditItem[]): AuditCounts {
  const counts = { kept: 0, paraphrased: 0, lost: 0 };
  for (const item of items) counts[item.fate] += 1;
  return counts;
}

function fileFate(
  relative: string,
  projectRoot: string,
  summary: string,
): { fate: AuditItem["fate"]; overlap: number } {
  const absolute = relative.startsWith("/") ? relative : `${projectRoot.replace(/\/+$/, "")}/${relative}`;
  if (summary.includes(relative) || summary.includes(absolute)) return { fate: "kept", overlap: 1 };
  const name = relative.slice(relative.lastIndexOf("/") + 1);
  if (name !== "" && new RegExp(`(^|[^\\w.-])${escapeRegExp(name)}($|[^\\w-])`).test(summary)) {
    return { fate: "paraphrased", overlap: 0.5 };
  }
  return { fate: "lost", overlap: 0 };
}

function relativePath(path: string, projectRoot: string): string {
  const root = `${projectRoot.replace(/\/+$/, "")}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}

/** The plan's first heading or first non-empty line. */
function planTitle(text: string | null): string | null {
  if (text === null) return null;
  const lines = text.split("\n").map((line) => line.trim());
  const heading = lines.find((line) => /^#{1,6}\s+\S/.test(line));
  const first = heading ?? lines.find((line) => line !== "");
  return first === undefined ? null : first.replace(/^#{1,6}\s+/, "");
}

/** An item's text as the audit stores it: one line, at most 300 characters. */
export function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= ITEM_CHARS ? flat : `${flat.slice(0, ITEM_CHARS - 1)}…`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
