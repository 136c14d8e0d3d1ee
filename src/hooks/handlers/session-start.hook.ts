// SessionStart: records the session (start, resume, compact, fork) in `.ctx/sessions.ctx`, then:
// - `compact`: audits what the compaction summary lost (hooks/compaction-audit.ts), re-injects the state
//   PreCompact saved led by the lost items, as additionalContext (under Claude Code's 10,000-character
//   limit), and marks the pending injection as injected;
// - `startup`: a short "where you left off" from the last saved state of another session, when
//   `hooks.autoRestore` is on;
// - `resume`, `fork`, `clear`: nothing (the transcript already holds the conversation).

import { projectPaths } from "../../config/paths.ts";
import { recordSessionStart } from "../../core/sessions/seen.ts";
import { describeError } from "../../errors.ts";
import { HOOK_ARCHIVE_INTERVAL_MS, startArchivePassIfDue } from "../../store/archive/archive-schedule.ts";
import { readInjection, writeInjection } from "../../store/context/injection.ts";
import { removeOrphanedTempFiles } from "../../store/files/atomic-write.ts";
import { updateSessionsSeen } from "../../store/sessions/seen.ts";
import { findAuditSource } from "../injection/compaction-audit-source.ts";
import { claudeCodePid } from "../runtime/claude-pid.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkSessionStartInput } from "../runtime/schemas.compiled.ts";
import type { SessionStartInput } from "../runtime/schemas.ts";
import { type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

const STARTUP_MAX_CHARS = 2_500;

export const hook = hookOf(compiledHookCheck(checkSessionStartInput), (input, deps) => handleSessionStart(input, deps));

export async function handleSessionStart(input: SessionStartInput, deps: HookDeps): Promise<HookOutcome | null> {
  // The sessions file and the injection are separate files: both are written (and fsynced) at once. A failure to
  // record the session never costs it its re-injected context.
  const recorded = recordSession(input, deps);
  // At most once an hour: a detached `ctx archive run` keeps transcripts Claude Code's cleanup is about to delete.
  if (deps.config.archive.enabled) {
    await startArchivePassIfDue({
      env: deps.env,
      execPath: process.execPath,
      cliPath: deps.cliPath,
      cwd: deps.projectRoot,
      now: deps.now(),
      intervalMs: HOOK_ARCHIVE_INTERVAL_MS,
    }).catch((error: unknown) => deps.logger.warn(`archive pass not started: ${describeError(error)}`));
  }
  const [seen, injected] = await Promise.allSettled([recorded, injectedContext(input, deps)]);
  const warnings: string[] = [];
  if (seen.status === "rejected") warnings.push(`ctx: the session was not recorded: ${describeError(seen.reason)}`);
  else if (seen.value.movedAside !== null) {
    warnings.push(`ctx: the sessions file failed to verify; kept it as ${seen.value.movedAside} and started a new one`);
  }
  if (injected.status === "rejected") throw injected.reason;
  const warning = warnings.length === 0 ? undefined : warnings.join("\n");
  const context = injected.value;
  if (context === null) return warning === undefined ? null : { stderr: warning };
  return {
    reply: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } },
    ...(warning === undefined ? {} : { stderr: warning }),
  };
}

/** Records the session in `.ctx/sessions.ctx`, then (once a session) clears temp files of killed writers. */
async function recordSession(input: SessionStartInput, deps: HookDeps): Promise<{ movedAside: string | null }> {
  const { movedAside } = await updateSessionsSeen(
    deps.projectRoot,
    (current) =>
      recordSessionStart(current, {
        sessionId: input.session_id,
        transcriptPath: input.transcript_path,
        cwd: input.cwd,
        source: input.source,
        model: input.model ?? null,
        pid: claudeCodePid(process.ppid),
        at: deps.now(),
      }),
    deps.now,
  );
  deps.logger.debug(`session ${input.session_id} started (${input.source})`);
  // SIGKILL skips a writer's cleanup: its temp files are old by the next session.
  await removeOrphanedTempFiles(projectPaths(deps.projectRoot).ctxDir).catch(() => []);
  return { movedAside };
}

async function injectedContext(input: SessionStartInput, deps: HookDeps): Promise<string | null> {
  if (input.source !== "compact" && input.source !== "startup") return null;
  const maxChars = deps.config.hooks.maxInjectChars;
  if (input.source === "startup") {
    if (!deps.config.hooks.autoRestore) return null;
    const [{ readNewestGoodState }, { startupInjectionText }] = await Promise.all([
      import("../../store/context/project-state.ts"),
      import("../injection/context-injection.ts"),
    ]);
    // A damaged state.ctx falls back to the newest session state or checkpoint that verifies, and says so.
    const recovered = await readNewestGoodState(deps.projectRoot, input.session_id).catch(() => null);
    if (recovered === null || recovered.state.sessionId === input.session_id) return null;
    const { source } = recovered;
    const origin =
      source.kind === "state"
        ? undefined
        : `${source.kind === "checkpoint" ? `checkpoint ${source.id}` : `session ${source.sessionId}'s own saved state`}, because .ctx/state.ctx failed to verify (ctx status shows why; ctx restore shows more)`;
    return startupInjectionText(recovered.state, Math.min(maxChars, STARTUP_MAX_CHARS), origin);
  }
  const injection = await readInjection(deps.projectRoot);
  const pending =
    injection !== null && injection.sessionId === input.session_id && !injection.settled ? injection : null;
  if (pending !== null) {
    // The summary exists now: audit what it lost and lead with that (the audit never runs in PreCompact).
    const audited = await findAuditSource(pending, input.transcript_path, deps.projectRoot)
      .then(async (source) =>
        source === null
          ? null
          : (await import("../injection/compaction-audit.ts")).auditedInjectionText(pending, source, deps),
      )
      .catch((error: unknown) => {
        deps.logger.warn(`compaction audit skipped: ${describeError(error)}`);
        return null;
      });
    const now = deps.now();
    const text = audited?.text ?? pending.text;
    await writeInjection(
      deps.projectRoot,
      {
        ...pending,
        text,
        injectedBy: "session-start",
        injectedAt: now.toISOString(),
        ...(audited === null ? {} : { lostInjected: true }),
      },
      now,
    );
    // Rendered by PreCompact (or just now with the audit): no state to load here otherwise.
    if (typeof text === "string" && text.length <= maxChars) return text;
  }
  // This session's own state: another session may have saved the project's newest state meanwhile.
  const [{ readSessionState }, { compactInjectionText }, { gatherInjectionExtras }] = await Promise.all([
    import("../../store/context/project-state.ts"),
    import("../injection/context-injection.ts"),
    import("../injection/injection-extras.ts"),
  ]);
  const state = await readSessionState(deps.projectRoot, input.session_id);
  return state === null ? null : compactInjectionText(state, pending, maxChars, await gatherInjectionExtras(deps));
}
