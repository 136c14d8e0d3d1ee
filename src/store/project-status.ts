// Reads what `ctx status` reports from a project's `.ctx/`. A file that fails to verify becomes a
// warning in the status, never a crash: status is how a person finds out something is wrong.
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { ContextStateSchema } from "../core/context-state.ts";
import {
  canRecoverFrom,
  decideRecovery,
  isSessionQuiet,
  type Recovery,
  unendedNewestSession,
} from "../core/recovery.ts";
import type { SessionRecord, SessionsFile } from "../core/sessions.ts";
import { buildStatus, type Status } from "../core/status.ts";
import { describeError, isCtxError } from "../errors.ts";
import { listCheckpoints, readCheckpoint } from "./checkpoints.ts";
import { projectPaths } from "./paths.ts";
import { readSessionsSeen } from "./sessions-seen.ts";

export interface ProjectStatusOptions {
  now?: () => Date;
}

export async function collectProjectStatus(
  projectRoot: string,
  version: string,
  recent?: number,
  options: ProjectStatusOptions = {},
): Promise<Status> {
  const paths = projectPaths(projectRoot);
  const warnings: string[] = [];
  let sessions: SessionsFile | null = null;
  try {
    sessions = await readSessionsSeen(projectRoot);
  } catch (error) {
    warnings.push(describeError(error));
  }
  let recovery: Recovery | null = null;
  try {
    recovery = await detectRecovery(projectRoot, sessions, (options.now ?? (() => new Date()))(), warnings);
  } catch (error) {
    warnings.push(`crash recovery check failed: ${describeError(error)}`);
  }
  return buildStatus({
    version,
    root: paths.root,
    ctxDir: paths.ctxDir,
    initialized: existsSync(paths.ctxDir),
    sessions,
    recovery,
    warnings,
    ...(recent === undefined ? {} : { recent }),
  });
}

/** Reads only what the decision needs: nothing more when the newest session ended or is still active. */
async function detectRecovery(
  projectRoot: string,
  sessions: SessionsFile | null,
  now: Date,
  warnings: string[],
): Promise<Recovery | null> {
  const session = unendedNewestSession(sessions);
  if (session === null) return null;
  const transcriptModifiedAt = await modifiedAt(session.transcriptPath);
  if (!isSessionQuiet(transcriptModifiedAt, now)) return null;
  const checkpoint = await newestRecoveringCheckpoint(projectRoot, session, warnings);
  return decideRecovery({ sessions, transcriptModifiedAt, checkpoint, now });
}

async function modifiedAt(path: string | null): Promise<Date | null> {
  if (path === null) return null;
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw error;
  });
  return info?.mtime ?? null;
}

/** Newest first, the first checkpoint written by `session` after its start that verifies; damaged ones are warnings. */
async function newestRecoveringCheckpoint(
  projectRoot: string,
  session: SessionRecord,
  warnings: string[],
): Promise<{ id: string; sessionId: string; createdAt: string } | null> {
  for (const entry of await listCheckpoints(projectRoot)) {
    // Ids carry their time: anything not after the start is older still, so stop there.
    if (!canRecoverFrom(session, { sessionId: session.sessionId, createdAt: entry.createdAt })) return null;
    try {
      const checkpoint = await readCheckpoint(projectRoot, entry.id, ContextStateSchema);
      if (checkpoint !== null && checkpoint.meta.sessionId === session.sessionId) return checkpoint.meta;
    } catch (error) {
      if (!isCtxError(error) || (error.code !== "STATE_CORRUPT" && error.code !== "STATE_UNSUPPORTED_VERSION")) {
        throw error;
      }
      warnings.push(`checkpoint ${entry.id} is damaged and was skipped: ${describeError(error)}`);
    }
  }
  return null;
}
