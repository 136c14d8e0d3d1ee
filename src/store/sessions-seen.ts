// `.ctx/sessions.ctx`: the sessions seen in a project, written by the SessionStart/SessionEnd hooks
// and read by `ctx status` and the `ctx_status` tool. LZ4: written on the hook path. This file is
// bookkeeping, so a damaged one is moved aside (kept for inspection) and started afresh.
import { rename } from "node:fs/promises";
import { type SessionsFile, SessionsFileSchema } from "../core/sessions.ts";
import { isCtxError } from "../errors.ts";
import { withLock } from "./lock.ts";
import { projectPaths } from "./paths.ts";
import { ensureProjectCtxDir } from "./project-dir.ts";
import { readStateFile, updateStateFile, verifyStateFile } from "./state-file.ts";

export async function readSessionsSeen(projectRoot: string): Promise<SessionsFile | null> {
  return readStateFile(projectPaths(projectRoot).sessions, SessionsFileSchema);
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
  const update = () => updateStateFile(path, SessionsFileSchema, change, { codec: "lz4" });
  try {
    return { sessions: await update(), movedAside: null };
  } catch (error) {
    if (!isCtxError(error) || error.code !== "STATE_CORRUPT") throw error;
    const aside = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
    await withLock(path, async () => {
      // Another process may have replaced it meanwhile: move only what is still damaged.
      const check = await verifyStateFile(path);
      if (!check.ok && check.code === "STATE_CORRUPT") await rename(path, aside);
      else if (check.ok) {
        // Verifies as a container but failed the schema: also damage for this file's purpose.
        await readStateFile(path, SessionsFileSchema).catch(() => rename(path, aside));
      }
    });
    return { sessions: await update(), movedAside: aside };
  }
}
