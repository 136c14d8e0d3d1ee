// UserPromptSubmit: the fallback for Claude Code dropping the SessionStart `compact` injection. After a
// compaction, the first prompt checks whether the injection's token is in the transcript; if it is not,
// the saved state is injected here, once. When it is, and the compaction audit (made by PostCompact, after
// SessionStart in Claude Code 2.1.330) found items the summary lost that SessionStart could not lead with,
// they come with this prompt. Cheap when nothing is pending: one small file read.
import { decideFallback, type Injection } from "../../core/context/injection.ts";
import { readInjection, transcriptContains, writeInjection } from "../../store/context/injection.ts";
import { readSessionState } from "../../store/context/project-state.ts";
import { compactInjectionText } from "../injection/context-injection.ts";
import { gatherInjectionExtras } from "../injection/injection-extras.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkUserPromptSubmitInput } from "../runtime/schemas.compiled.ts";
import type { UserPromptSubmitInput } from "../runtime/schemas.ts";
import { type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

export const hook = hookOf(compiledHookCheck(checkUserPromptSubmitInput), (input, deps) =>
  handleUserPromptSubmit(input, deps),
);

export async function handleUserPromptSubmit(
  input: UserPromptSubmitInput,
  deps: HookDeps,
): Promise<HookOutcome | null> {
  const injection = await readInjection(deps.projectRoot);
  if (injection === null || injection.settled || injection.sessionId !== input.session_id) return null;
  const seen = await transcriptContains(input.transcript_path, injection.token);
  const decision = decideFallback(injection, input.session_id, seen);
  const now = deps.now();
  if (decision === "settle") {
    const lost = injection.lostInjected === true ? "" : await lostItemsText(injection, deps);
    await writeInjection(deps.projectRoot, { ...injection, settled: true, lostInjected: true }, now);
    if (lost === "") return null;
    deps.logger.info("user-prompt-submit: injecting what the compaction summary lost");
    return { reply: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: lost } } };
  }
  if (decision !== "inject") return null;
  const context = await injectionText(injection, input.session_id, input.transcript_path, deps);
  if (context === null) return null; // nothing to inject (yet): stay pending rather than claim it was delivered
  await writeInjection(
    deps.projectRoot,
    {
      ...injection,
      settled: true,
      lostInjected: true,
      injectedBy: "user-prompt-submit",
      injectedAt: now.toISOString(),
    },
    now,
  );
  deps.logger.info("user-prompt-submit: the compact re-injection was not in the transcript; injecting it now");
  return { reply: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } } };
}

/** The lost items of this compaction's audit as a block for the model; "" when there is none or none lost. */
async function lostItemsText(injection: Injection, deps: HookDeps): Promise<string> {
  if (injection.snapshotId === null) return "";
  const [{ readAudit }, { renderLostBlock }] = await Promise.all([
    import("../../store/audit/audit-store.ts"),
    import("../../core/audit/report.ts"),
  ]);
  const audit = await readAudit(deps.projectRoot, injection.snapshotId);
  if (audit === null || audit.sessionId !== injection.sessionId) return "";
  const block = renderLostBlock(audit.items, deps.config.hooks.maxInjectChars - 200);
  return block === ""
    ? ""
    : `${block}\n(ctx: from the saved state of snapshot ${audit.snapshotId}; the rest is in the summary.)`;
}

/**
 * The re-injection led by what the compaction lost (its audit is stored by now), else the text PreCompact
 * rendered, else this session's saved state rendered now; null when none exists.
 */
async function injectionText(
  injection: Injection,
  sessionId: string,
  transcriptPath: string,
  deps: HookDeps,
): Promise<string | null> {
  const audited = await import("../injection/compaction-audit-source.ts")
    .then(({ findAuditSource }) => findAuditSource(injection, transcriptPath, deps.projectRoot))
    .then(async (source) =>
      source === null
        ? null
        : (await import("../injection/compaction-audit.ts")).auditedInjectionText(injection, source, deps),
    )
    .catch(() => null);
  if (audited !== null) return audited.text;
  const maxChars = deps.config.hooks.maxInjectChars;
  if (typeof injection.text === "string" && injection.text.length <= maxChars) return injection.text;
  const state = await readSessionState(deps.projectRoot, sessionId);
  return state === null ? null : compactInjectionText(state, injection, maxChars, await gatherInjectionExtras(deps));
}
