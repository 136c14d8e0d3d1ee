// SessionEnd: records the end of the session. Claude Code gives all SessionEnd hooks a shared 1.5 s
// unless a timeout is declared (ctx init declares one): this must stay a small, quick write.
import { recordSessionEnd } from "../core/sessions.ts";
import { updateSessionsSeen } from "../store/sessions-seen.ts";
import type { SessionEndInput } from "./schemas.ts";
import type { HookDeps, HookOutcome } from "./table.ts";

export async function handleSessionEnd(input: SessionEndInput, deps: HookDeps): Promise<HookOutcome | null> {
  const { movedAside } = await updateSessionsSeen(
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
  );
  deps.logger.debug(`session ${input.session_id} ended (${input.reason ?? "no reason given"})`);
  if (movedAside === null) return null;
  return { stderr: `ctx: the sessions file failed to verify; kept it as ${movedAside} and started a new one` };
}
