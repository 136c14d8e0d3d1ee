// SessionStart: records that the session started (or resumed, compacted, forked) in `.ctx/sessions.ctx`.
import { recordSessionStart } from "../core/sessions.ts";
import { removeOrphanedTempFiles } from "../store/atomic-write.ts";
import { projectPaths } from "../store/paths.ts";
import { updateSessionsSeen } from "../store/sessions-seen.ts";
import type { SessionStartInput } from "./schemas.ts";
import type { HookDeps, HookOutcome } from "./table.ts";

export async function handleSessionStart(input: SessionStartInput, deps: HookDeps): Promise<HookOutcome | null> {
  const { movedAside } = await updateSessionsSeen(
    deps.projectRoot,
    (current) =>
      recordSessionStart(current, {
        sessionId: input.session_id,
        transcriptPath: input.transcript_path,
        cwd: input.cwd,
        source: input.source,
        model: input.model ?? null,
        at: deps.now(),
      }),
    deps.now,
  );
  deps.logger.debug(`session ${input.session_id} started (${input.source})`);
  // Once a session: temp files of writers killed mid-write (SIGKILL skips their cleanup).
  await removeOrphanedTempFiles(projectPaths(deps.projectRoot).ctxDir).catch(() => []);
  if (movedAside === null) return null;
  return { stderr: `ctx: the sessions file failed to verify; kept it as ${movedAside} and started a new one` };
}
