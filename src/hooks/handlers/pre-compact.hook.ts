// PreCompact: before Claude Code compacts, capture the context from the transcript, save it as the
// current state, snapshot it with the transcript (LZ4 now; zstd-19 later in a detached process), read it
// back verified, and leave the re-injection pending for SessionStart `compact`. PreCompact cannot inject
// anything itself. If the state cannot be saved and verified, the compaction is blocked (exit 2) when
// `hooks.blockCompactionOnSaveFailure` is on, so nothing is lost.

import type { Config } from "../../config/schema.ts";
import { newInjection } from "../../core/context/injection.ts";
import { describeError, isCtxError } from "../../errors.ts";
import { captureContextState } from "../../store/context/capture.ts";
import { writeInjection } from "../../store/context/injection.ts";
import { snapshotContext, startSnapshotTranscript } from "../../store/context/operations.ts";
import { readSessionState, writeProjectState } from "../../store/context/project-state.ts";
import { spawnDetachedRecompress } from "../../store/snapshots/archive-worker.ts";
import { compactInjectionText } from "../injection/context-injection.ts";
import { gatherInjectionExtras } from "../injection/injection-extras.ts";
import { compiledHookCheck } from "../runtime/compiled-check.ts";
import { checkPreCompactInput } from "../runtime/schemas.compiled.ts";
import type { PreCompactInput } from "../runtime/schemas.ts";
import { type HookDefinition, type HookDeps, type HookOutcome, hookOf } from "../runtime/types.ts";

export async function handlePreCompact(input: PreCompactInput, deps: HookDeps): Promise<HookOutcome | null> {
  const allowlist = deps.config.redaction.allowlist;
  const now = deps.now();
  const ops = { projectRoot: deps.projectRoot, config: deps.config, now: () => now };
  // The snapshot's copy of the transcript is redacted in a worker thread while the state is captured and saved here.
  const transcript = startSnapshotTranscript(ops, {
    sessionId: input.session_id,
    transcriptPath: input.transcript_path,
  });
  try {
    const previous = await readSessionState(deps.projectRoot, input.session_id);
    const captured = await captureContextState({
      projectRoot: deps.projectRoot,
      sessionId: input.session_id,
      transcriptPath: input.transcript_path,
      now,
      previous,
      allowlist,
    });
    await writeProjectState(deps.projectRoot, captured.state, { now });
    let snapshotId: string | null = null;
    let warning: string | undefined;
    try {
      const { snapshot, pruned } = await snapshotContext(ops, {
        sessionId: input.session_id,
        transcriptPath: input.transcript_path,
        trigger: input.trigger === "manual" ? "manual" : "auto",
        state: captured.state,
        prepared: transcript,
      });
      snapshotId = snapshot.id;
      deps.logger.info(`pre-compact: snapshot ${snapshot.id} saved and verified; ${pruned.length} pruned`);
    } catch (error) {
      // Out of snapshot space: the state itself is saved (checked below), so the compaction may go on;
      // blocking every compaction until someone unpins snapshots would be worse.
      if (!isCtxError(error) || error.code !== "STORAGE_LIMIT") throw error;
      if ((await readSessionState(deps.projectRoot, input.session_id)) === null) throw error;
      warning = `ctx: no snapshot this time: ${error.message}${error.hint ? ` (${error.hint})` : ""}; the state itself was saved`;
    }
    const injection = newInjection(input.session_id, snapshotId, now);
    const extras = await gatherInjectionExtras(deps);
    const text = compactInjectionText(captured.state, injection, deps.config.hooks.maxInjectChars, extras);
    await writeInjection(deps.projectRoot, { ...injection, text }, now);
    if (snapshotId !== null && deps.cliPath !== "" && deps.config.retention.archiveSnapshots) {
      spawnDetachedRecompress(deps.projectRoot, snapshotId, {
        execPath: process.execPath,
        cliPath: deps.cliPath,
        env: deps.env,
      });
    }
    return warning === undefined ? null : { stderr: warning };
  } catch (error) {
    const hint = isCtxError(error) && error.hint !== undefined ? ` (${error.hint})` : "";
    const reason = `ctx could not save and verify the context before compaction: ${describeError(error)}${hint}`;
    if (deps.config.hooks.blockCompactionOnSaveFailure) {
      return {
        exitCode: 2,
        stderr: `${reason}. Compaction blocked so nothing is lost; run \`ctx doctor\`, or set hooks.blockCompactionOnSaveFailure to false to compact anyway.`,
      };
    }
    return { stderr: `${reason}; compacting anyway (hooks.blockCompactionOnSaveFailure is off)` };
  } finally {
    transcript.cancel();
  }
}

function preCompactTimeoutOutcome(config: Config, limitMs: number): HookOutcome | null {
  const reason = `ctx could not save the context within ${limitMs} ms before compaction`;
  return config.hooks.blockCompactionOnSaveFailure
    ? {
        exitCode: 2,
        stderr: `${reason}; compaction blocked so nothing is lost (set hooks.blockCompactionOnSaveFailure to false to allow it)`,
      }
    : { stderr: reason };
}

/** Saving before a compaction may take longer on a huge transcript; running out of time is a failure to save, which
 *  blocks the compaction when the config says so (the user loses nothing either way). */
const PRE_COMPACT_LIMITS: Pick<HookDefinition, "timeoutMs" | "onTimeout"> = {
  timeoutMs: (config) => Math.max(config.hooks.handlerTimeoutMs, 30_000),
  onTimeout: (config, limitMs) => preCompactTimeoutOutcome(config, limitMs),
};

/** Its time limit is the larger of 30 s and `hooks.handlerTimeoutMs`. */
export const hook = hookOf(
  compiledHookCheck(checkPreCompactInput),
  (input, deps) => handlePreCompact(input, deps),
  PRE_COMPACT_LIMITS,
);
