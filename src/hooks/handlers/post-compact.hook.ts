// PostCompact (Claude Code 2.1.76+): the context guard notes the compaction (store/guard/context-guard.ts), so that
// `ctx status`, `ctx_health` and the status line stop showing the last tool call's figures from before it.
// Its `compact_summary` is the summary itself, so the compaction audit is made from it here and stored beside the
// snapshot; SessionStart `compact` then leads the re-injection with what it lost. PostCompact's output is
// discarded: it only writes. Whichever of the two runs first audits; this one, holding the summary Claude Code sent,
// overwrites a transcript-based record.
import { describeError } from "../../errors.ts";
import { readInjection } from "../../store/context/injection.ts";
import { noteCompaction } from "../../store/guard/context-guard.ts";
import { auditPendingCompaction } from "../injection/compaction-audit.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkPostCompactInput } from "../runtime/schemas.compiled.ts";
import type { PostCompactInput } from "../runtime/schemas.ts";
import { type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

export const hook = hookOf(compiledHookCheck(checkPostCompactInput), (input, deps) => handlePostCompact(input, deps));

export async function handlePostCompact(input: PostCompactInput, deps: HookDeps): Promise<HookOutcome | null> {
  try {
    noteCompaction(input, deps);
  } catch (error) {
    deps.logger.warn(`post-compact: the context guard could not note the compaction: ${describeError(error)}`);
  }
  const summary = input.compact_summary ?? "";
  if (summary.trim() === "") return null;
  const injection = await readInjection(deps.projectRoot);
  if (injection === null || injection.sessionId !== input.session_id || injection.snapshotId === null) return null;
  const audited = await auditPendingCompaction(
    injection,
    { text: summary, source: "post-compact", at: deps.now().toISOString() },
    deps,
  );
  if (audited !== null) deps.logger.info(`post-compact: audit of snapshot ${audited.audit.snapshotId} stored`);
  return null;
}
