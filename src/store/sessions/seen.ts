// `.ctx/sessions.ctx`: the sessions seen in a project, written by the SessionStart/SessionEnd hooks
// and read by `ctx status` and the `ctx_status` tool. Stored uncompressed, like the injection: at most 200
// records (tens of KB), and a SessionStart that reads and writes no compressed file never loads zlib (bench/run.ts
// hooks, builtinCostMs). Bookkeeping, so a damaged one is moved aside (kept for inspection)
// and started afresh.
import { projectPaths } from "../../config/paths.ts";
import { checkSessionsFile } from "../../core/sessions/seen-schema.compiled.ts";
import type { SessionsFile } from "../../core/sessions/seen-schema.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { updateStateFileOrQuarantine } from "../files/quarantine.ts";
import { readStateFile } from "../files/state-file.ts";

export async function readSessionsSeen(projectRoot: string): Promise<SessionsFile | null> {
  return readStateFile(projectPaths(projectRoot).sessions, checkSessionsFile);
}

export interface SessionsUpdate {
  sessions: SessionsFile;
  /** Where a damaged sessions file was moved before starting afresh; null when none was. */
  movedAside: string | null;
}

export async function updateSessionsSeen(
  projectRoot: string,
  change: (current: SessionsFile | null) => SessionsFile,
  now: () => Date = () => new Date(),
): Promise<SessionsUpdate> {
  await ensureProjectCtxDir(projectRoot);
  const path = projectPaths(projectRoot).sessions;
  const { value, movedAside } = await updateStateFileOrQuarantine(path, checkSessionsFile, change, {
    codec: "none",
    now: now(),
  });
  return { sessions: value, movedAside };
}
