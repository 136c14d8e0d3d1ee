// The compaction audit on the hook path, run once the summary exists: by PostCompact (with its
// `compact_summary`, where the Claude Code version sends it) and by SessionStart `compact` or the prompt
// fallback (the audit PostCompact stored, else the summary entry of the transcript; found by
// compaction-audit-source.ts before this module is loaded). The re-injection then leads with what the
// summary lost and drops the decisions, preferences and failures it already carries. Never PreCompact.
import { type CompactionAudit, clip } from "../../core/audit/compaction-audit.ts";
import { renderLostBlock } from "../../core/audit/report.ts";
import type { ContextState } from "../../core/context/extract.ts";
import type { Injection } from "../../core/context/injection.ts";
import { runCompactionAudit, savedState } from "../../store/audit/run-audit.ts";
import { assemblyPolicyOf, storedSummaries } from "../../store/context/restore.ts";
import type { HookDeps } from "../runtime/types.ts";
import type { AuditSource, SummaryText } from "./compaction-audit-source.ts";
import { compactInjectionText } from "./context-injection.ts";
import { gatherInjectionExtras } from "./injection-extras.ts";

/** The share of the re-injection the lost items may take; the rules and the state share the rest. */
const LOST_SHARE = 0.5;

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
 * The re-injection text led by what the compaction lost (`source`: compaction-audit-source.ts); null when the
 * audit cannot be made (no snapshot, the saved state gone): the caller then injects the text PreCompact rendered.
 */
export async function auditedInjectionText(
  pending: Injection,
  source: AuditSource,
  deps: HookDeps,
): Promise<{ text: string; audit: CompactionAudit } | null> {
  if (pending.snapshotId === null) return null;
  let audited: { audit: CompactionAudit; state: ContextState } | null;
  if (source.kind === "stored") {
    const state = await savedState({
      projectRoot: deps.projectRoot,
      sessionId: pending.sessionId,
      snapshotId: pending.snapshotId,
      savedAt: pending.createdAt,
    });
    audited = state === null ? null : { audit: source.audit, state };
  } else {
    audited = await auditPendingCompaction(pending, source.summary, deps);
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
