// What the guard does when it speaks (loaded only then): L2 saves the state, L3 saves and writes a
// checkpoint, L4 saves and takes a snapshot; then the note for Claude (additionalContext) and, for the top
// two tiers, a line for the user (systemMessage). A failed action is reported in the note, never thrown:
// the warning matters more than the save.
import type { ContextState } from "../../core/context/extract.ts";
import { healthOf } from "../../core/guard/health.ts";
import type { GuardState } from "../../core/guard/state.ts";
import { type ActionResults, formatGuardNotice, formatGuardSystemMessage } from "../../core/guard/text.ts";
import type { GuardNotice } from "../../core/guard/tiers.ts";
import { describeError } from "../../errors.ts";
import { checkpointContext, saveContext, snapshotContext } from "../context/operations.ts";
import type { GuardDeps, GuardReply } from "./types.ts";

export async function actOnNotice(
  notice: GuardNotice,
  guardState: GuardState,
  input: { session_id: string; transcript_path: string },
  deps: GuardDeps,
): Promise<GuardReply> {
  const done: ActionResults = { saved: false, checkpointId: null, snapshotId: null, failures: [] };
  const ops = { projectRoot: deps.projectRoot, config: deps.config, now: deps.now };
  const session = { sessionId: input.session_id, transcriptPath: input.transcript_path };
  const attempt = async (what: string, action: () => Promise<void>) => {
    try {
      await action();
    } catch (error) {
      deps.logger.warn(`guard: ${what} failed: ${describeError(error)}`);
      done.failures.push(`${what} (${describeError(error)})`);
    }
  };
  let saved: ContextState | null = null;
  if (notice.actions.includes("save")) {
    await attempt("save the state", async () => {
      saved = (await saveContext(ops, session)).state;
      done.saved = true;
    });
  }
  if (notice.actions.includes("checkpoint")) {
    await attempt("write a checkpoint", async () => {
      done.checkpointId = (await checkpointContext(ops, session)).id;
    });
  }
  const state: ContextState | null = saved;
  if (notice.actions.includes("snapshot") && state !== null) {
    await attempt("take a snapshot", async () => {
      const { snapshot } = await snapshotContext(ops, { ...session, trigger: "guard", state });
      done.snapshotId = snapshot.id;
    });
  }
  const health = healthOf(guardState);
  deps.logger.info(`guard: ${notice.tier} (${notice.reason}) for session ${input.session_id}`);
  return {
    additionalContext: formatGuardNotice(notice, health, done),
    systemMessage: formatGuardSystemMessage(notice, health),
  };
}
