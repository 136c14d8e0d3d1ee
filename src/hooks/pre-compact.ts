// PreCompact: before Claude Code compacts, capture the context from the transcript, save it as the
// current state, snapshot it with the transcript (LZ4 now; zstd-19 later in a detached process), read it
// back verified, and leave the re-injection pending for SessionStart `compact`. PreCompact cannot inject
// anything itself. If the state cannot be saved and verified, the compaction is blocked (exit 2) when
// `hooks.blockCompactionOnSaveFailure` is on, so nothing is lost.
import { ContextStateSchema } from "../core/context-state.ts";
import { newInjection } from "../core/injection.ts";
import { redactText } from "../core/redact.ts";
import { retentionPolicyFromConfig } from "../core/retention.ts";
import { describeError } from "../errors.ts";
import { spawnDetachedRecompress } from "../store/archive-worker.ts";
import { captureContextState } from "../store/context-capture.ts";
import { writeInjection } from "../store/injection-store.ts";
import { readProjectState, writeProjectState } from "../store/project-state.ts";
import { createSnapshot } from "../store/snapshots.ts";
import type { PreCompactInput } from "./schemas.ts";
import type { HookDeps, HookOutcome } from "./table.ts";

export async function handlePreCompact(input: PreCompactInput, deps: HookDeps): Promise<HookOutcome | null> {
  const allowlist = deps.config.redaction.allowlist;
  try {
    const now = deps.now();
    const previous = await readProjectState(deps.projectRoot).catch(() => null);
    const captured = await captureContextState({
      projectRoot: deps.projectRoot,
      sessionId: input.session_id,
      transcriptPath: input.transcript_path,
      now,
      previous,
      allowlist,
    });
    await writeProjectState(deps.projectRoot, captured.state, { now });
    const { snapshot, pruned } = await createSnapshot(
      deps.projectRoot,
      {
        sessionId: input.session_id,
        trigger: input.trigger === "manual" ? "manual" : "auto",
        state: captured.state,
        stateSchema: ContextStateSchema,
        transcriptPath: input.transcript_path,
        transformTranscript: (text) => redactText(text, { allowlist }).text,
      },
      { codec: "lz4", retention: retentionPolicyFromConfig(deps.config.retention), now },
    );
    await writeInjection(deps.projectRoot, newInjection(input.session_id, snapshot.id, now), now);
    if (deps.cliPath !== "" && deps.config.retention.archiveSnapshots) {
      spawnDetachedRecompress(deps.projectRoot, snapshot.id, {
        execPath: process.execPath,
        cliPath: deps.cliPath,
        env: deps.env,
      });
    }
    deps.logger.info(`pre-compact: snapshot ${snapshot.id} saved and verified; ${pruned.length} pruned`);
    return null;
  } catch (error) {
    const reason = `ctx could not save and verify the context before compaction: ${describeError(error)}`;
    if (deps.config.hooks.blockCompactionOnSaveFailure) {
      return {
        exitCode: 2,
        stderr: `${reason}. Compaction blocked so nothing is lost; run \`ctx doctor\`, or set hooks.blockCompactionOnSaveFailure to false to compact anyway.`,
      };
    }
    return { stderr: `${reason}; compacting anyway (hooks.blockCompactionOnSaveFailure is off)` };
  }
}
