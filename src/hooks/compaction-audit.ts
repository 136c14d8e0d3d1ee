// The compaction audit on the hook path, run once the summary exists: by PostCompact (with its
// `compact_summary`, where the Claude Code version sends it) and by SessionStart `compact` (the audit
// PostCompact stored, else the summary entry of the transcript). The re-injection then leads with what the
// summary lost and drops the decisions, preferences and failures it already carries. Never PreCompact.
import { type CompactionAudit, clip } from "../core/audit/compaction-audit.ts";
import { renderLostBlock } from "../core/audit/report.ts";
import type { ContextState } from "../core/context/extract.ts";
import type { Injection } from "../core/context/injection.ts";
import { readAudit } from "../store/audit/audit-store.ts";
import { runCompactionAudit, savedState } from "../store/audit/run-audit.ts";
import { assemblyPolicyOf, storedSummaries } from "../store/context/restore.ts";
import { readFreshCompactSummary } from "../store/transcript/compact-summary.ts";
import { compactInjectionText } from "./context-injection.ts";
import { gatherInjectionExtras } from "./injection-extras.ts";
import type { HookDeps } from "./types.ts";

/** The share of the re-injection the lost items may take; the rules and the state share the rest. */
const LOST_SHARE = 0.5;

export interface SummaryText {
  text: string;
  source: CompactionAudit["summarySource"];
  at: string | null;
}

/** Audits the compaction `pending` belongs to against `summary` and stores the record. */
export async function auditPendingCompaction(
  pending: Injection,
  summary: SummaryText,
  deps: HookDeps,
): Promise<{ audit: CompactionAudit; state: ContextState } | null> {
  if (pending.snapshotId === null) return null;
  return runCompactionAudit({
    projectRoot: deps.projectRoot,
    sessionId: pending.sessionId,
    snapshotId: pending.snapshotId,
    savedAt: pending.createdAt,
    summary,
    threshold: deps.config.rules.overlapThreshold,
    env: deps.env,
    allowlist: deps.config.redaction.allowlist,
    now: deps.now(),
  });
}

/**
 * The re-injection text led by what the compaction lost; null when there is no audit to make (no snapshot,
 * no summary found, the saved state gone): the caller then injects the text PreCompact rendered.
 */
export async function auditedInjectionText(
  pending: Injection,
  transcriptPath: string,
  deps: HookDeps,
): Promise<{ text: string; audit: CompactionAudit } | null> {
  if (pending.snapshotId === null) return null;
  const ids = {
    projectRoot: deps.projectRoot,
    sessionId: pending.sessionId,
    snapshotId: pending.snapshotId,
    savedAt: pending.createdAt,
  };
  let audited: { audit: CompactionAudit; state: ContextState } | null = null;
  const stored = await readAudit(deps.projectRoot, pending.snapshotId);
  if (stored !== null && stored.sessionId === pending.sessionId) {
    const state = await savedState(ids);
    audited = state === null ? null : { audit: stored, state };
  } else {
    const summary = await readFreshCompactSummary(transcriptPath, pending.createdAt);
    if (summary === null) return null;
    audited = await auditPendingCompaction(
      pending,
      { text: summary.text, source: "transcript", at: summary.timestamp },
      deps,
    );
  }
  if (audited === null) return null;
  const maxChars = deps.config.hooks.maxInjectChars;
  const lostText = renderLostBlock(audited.audit.items, Math.floor(maxChars * LOST_SHARE));
  const summaries = {
    stored: await storedSummaries(deps.projectRoot, pending.sessionId, deps.now()),
    policy: assemblyPolicyOf(deps.config.summaries),
  };
  const extras = { ...(await gatherInjectionExtras(deps)), lostText, summaries };
  const text = compactInjectionText(withoutCovered(audited.state, audited.audit), pending, maxChars, extras);
  return { text, audit: audited.audit };
}

/** The state without the decisions, preferences and failures the summary already carries. */
export function withoutCovered(state: ContextState, audit: CompactionAudit): ContextState {
  const covered = new Set(
    audit.items.filter((item) => item.fate !== "lost").map((item) => `${item.kind}\u0000${item.text}`),
  );
  const keep = (kind: string) => (statement: { text: string }) => !covered.has(`${kind}\u0000${clip(statement.text)}`);
  return {
    ...state,
    decisions: state.decisions.filter(keep("decision")),
    preferences: state.preferences.filter(keep("preference")),
    tools: {
      ...state.tools,
      failures: state.tools.failures.filter(
        (failure) => !covered.has(`failure\u0000${clip(`${failure.tool}: ${failure.message}`)}`),
      ),
    },
  };
}
