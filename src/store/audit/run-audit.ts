// Runs the compaction-loss audit once the summary exists (SessionStart `compact` or PostCompact, never
// PreCompact, whose latency is the compaction's): the state ctx saved for that compaction (the session's
// own state when it is still the one PreCompact wrote, else the snapshot's), the CLAUDE.md rules, and the
// summary text; the record is redacted like everything ctx persists and written beside the snapshot.
import {
  type AUDIT_SUMMARY_SOURCES,
  auditCompaction,
  type CompactionAudit,
} from "../../core/audit/compaction-audit.ts";
import { type ContextState, ContextStateSchema } from "../../core/context/extract.ts";
import { redactText } from "../../core/redact/redact.ts";
import type { Rule } from "../../core/rules/claude-md.ts";
import { readSessionState } from "../context/project-state.ts";
import { discoverClaudeMdRules } from "../rules/claude-md.ts";
import { readSnapshot } from "../snapshots/snapshots.ts";
import { writeAudit } from "./audit-store.ts";

export interface RunAuditInput {
  projectRoot: string;
  sessionId: string;
  snapshotId: string;
  /** When PreCompact saved the state (the injection's createdAt): the session state of that time is used. */
  savedAt: string | null;
  summary: { text: string; source: (typeof AUDIT_SUMMARY_SOURCES)[number]; at: string | null };
  threshold: number;
  env: NodeJS.ProcessEnv;
  allowlist: readonly string[];
  now: Date;
}

export interface RunAuditResult {
  audit: CompactionAudit;
  /** The state the audit was made from (for the re-injection that follows). */
  state: ContextState;
}

/** Audits one compaction and stores the record; null when the state saved for it is gone. */
export async function runCompactionAudit(input: RunAuditInput): Promise<RunAuditResult | null> {
  const state = await savedState(input);
  if (state === null) return null;
  let rules: Rule[] = [];
  try {
    rules = discoverClaudeMdRules(input.projectRoot, input.env).rules;
  } catch {
    // An unreadable CLAUDE.md leaves the rules out of this audit; the other items still count.
  }
  const redact = (text: string) => redactText(text, { allowlist: input.allowlist }).text;
  const items = auditCompaction({ state, rules, summary: input.summary.text, threshold: input.threshold }).map(
    (item) => ({ ...item, text: redact(item.text) }),
  );
  const audit: CompactionAudit = {
    version: 1,
    sessionId: input.sessionId,
    snapshotId: input.snapshotId,
    at: input.summary.at ?? input.now.toISOString(),
    summarySource: input.summary.source,
    summaryChars: input.summary.text.length,
    threshold: input.threshold,
    items,
  };
  await writeAudit(input.projectRoot, audit);
  return { audit, state };
}

/** The state PreCompact saved for the compaction (see the header). */
export async function savedState(
  input: Pick<RunAuditInput, "projectRoot" | "sessionId" | "snapshotId" | "savedAt">,
): Promise<ContextState | null> {
  const own = await readSessionState(input.projectRoot, input.sessionId).catch(() => null);
  if (own !== null && input.savedAt !== null && own.extractedAt === input.savedAt) return own;
  // Decodes the snapshot's transcript too: only when the session's state has moved on since PreCompact.
  const snapshot = await readSnapshot(input.projectRoot, input.snapshotId, ContextStateSchema).catch(() => null);
  if (snapshot !== null && snapshot.snapshot.sessionId === input.sessionId) return snapshot.state;
  return own;
}
