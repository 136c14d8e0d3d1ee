// SessionEnd: records the end of the session and saves its context (capture from the last compaction
// boundary + one LZ4 write). Claude Code gives all SessionEnd hooks a shared 1.5 s unless a timeout is
// declared (ctx init declares one); this stays well under that (docs/claude-code-facts.md "Hook output and time limits"; bench/run.ts hooks, sessionEnd). With
// `breadcrumb.enabled`, one line about the session is also appended to an Obsidian daily note.
import { basename } from "node:path";
import { homeOf } from "../../config/claude-paths.ts";
import type { ContextState } from "../../core/context/extract.ts";
import { recordSessionEnd } from "../../core/sessions/seen.ts";
import { describeError } from "../../errors.ts";
import { queueSessionIndexing } from "../../search/sync/queue-index.ts";
import { saveContext } from "../../store/context/operations.ts";
import { updateSessionsSeen } from "../../store/sessions/seen.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkSessionEndInput } from "../runtime/schemas.compiled.ts";
import type { SessionEndInput } from "../runtime/schemas.ts";
import { type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

export const hook = hookOf(compiledHookCheck(checkSessionEndInput), (input, deps) => handleSessionEnd(input, deps));

export async function handleSessionEnd(input: SessionEndInput, deps: HookDeps): Promise<HookOutcome | null> {
  // Two separate files at once: the sessions file's write (and fsync) overlaps the capture, the bulk of the work.
  const [seen, saved] = await Promise.allSettled([
    updateSessionsSeen(
      deps.projectRoot,
      (current) =>
        recordSessionEnd(current, {
          sessionId: input.session_id,
          transcriptPath: input.transcript_path,
          cwd: input.cwd,
          reason: input.reason ?? null,
          at: deps.now(),
        }),
      deps.now,
    ),
    saveContext(
      { projectRoot: deps.projectRoot, config: deps.config, now: deps.now },
      { sessionId: input.session_id, transcriptPath: input.transcript_path },
    ),
  ]);
  deps.logger.debug(`session ${input.session_id} ended (${input.reason ?? "no reason given"})`);
  const lines: string[] = [];
  if (seen.status === "rejected") lines.push(`ctx: the session's end was not recorded: ${describeError(seen.reason)}`);
  else if (seen.value.movedAside !== null) {
    lines.push(`ctx: the sessions file failed to verify; kept it as ${seen.value.movedAside} and started a new one`);
  }
  let state: ContextState | null = null;
  if (saved.status === "fulfilled") state = saved.value.state;
  else lines.push(`ctx: could not save the session's context at its end: ${describeError(saved.reason)}`);
  try {
    // Searchable right away: a detached, nice'd `ctx index --file` unless `ctx serve` watches. Never waited for.
    const queued = queueSessionIndexing({
      env: deps.env,
      cliPath: deps.cliPath,
      transcriptPath: input.transcript_path,
    });
    deps.logger.debug(`indexing of the ended session: ${queued.outcome}`);
  } catch (error) {
    deps.logger.debug(`could not queue indexing of the ended session: ${describeError(error)}`);
  }
  if (deps.config.breadcrumb.enabled) {
    try {
      const { appendBreadcrumb } = await import("../../store/sessions/breadcrumb-note.ts");
      const note = await appendBreadcrumb(
        {
          vault: deps.config.breadcrumb.vault,
          heading: deps.config.breadcrumb.heading,
          home: homeOf(deps.env),
          allowlist: deps.config.redaction.allowlist,
        },
        { at: deps.now(), project: basename(deps.projectRoot), sessionId: input.session_id, title: titleOf(state) },
      );
      deps.logger.debug(`session breadcrumb written to ${note}`);
    } catch (error) {
      lines.push(`ctx: no session breadcrumb: ${describeError(error)}`);
    }
  }
  return lines.length === 0 ? null : { stderr: lines.join("\n") };
}

/** The session's title, else the first prompt ctx kept (since the last compaction). */
function titleOf(state: ContextState | null): string | null {
  if (state === null) return null;
  return state.session.title ?? state.conversation.find((message) => message.kind === "prompt")?.text ?? null;
}
