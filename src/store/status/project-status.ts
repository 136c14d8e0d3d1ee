// Reads what `ctx status` reports from a project's `.ctx/`. A file that fails to verify becomes a
// warning in the status, never a crash: status is how a person finds out something is wrong.
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { projectPaths } from "../../config/paths.ts";
import { type ContextState, ContextStateSchema } from "../../core/context/extract.ts";
import { type Health, healthOf } from "../../core/guard/health.ts";
import {
  type CheckpointRef,
  canRecoverFrom,
  crashedSessions,
  decideRecovery,
  type IsProcessAlive,
  type Recovery,
  unendedSessions,
} from "../../core/sessions/recovery.ts";
import type { SessionRecord, SessionsFile } from "../../core/sessions/seen.ts";
import { buildStatus, type Status } from "../../core/status/report.ts";
import { describeError, isCtxError } from "../../errors.ts";
import { readAuditReport } from "../audit/audit-store.ts";
import { readProjectState } from "../context/project-state.ts";
import { diskUsage } from "../files/disk-usage.ts";
import { isProcessAlive } from "../files/process-alive.ts";
import { readNewestGuardState } from "../guard/guard-store.ts";
import { readSessionsSeen } from "../sessions/seen.ts";
import { scanSnapshotFolder } from "../snapshots/catalog.ts";
import { type CheckpointEntry, listCheckpoints, readCheckpoint } from "../snapshots/checkpoints.ts";

export interface ProjectStatusOptions {
  now?: () => Date;
  /** Whether a process exists on this machine (default: signal 0). */
  isProcessAlive?: IsProcessAlive;
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
    const now = (options.now ?? (() => new Date()))();
    recovery = await detectRecovery(projectRoot, sessions, now, options.isProcessAlive ?? isProcessAlive, warnings);
  } catch (error) {
    warnings.push(`crash recovery check failed: ${describeError(error)}`);
  }
  // The saved context itself: a damaged state.ctx is said here (SessionStart falls back past it).
  let saved: ContextState | null = null;
  try {
    saved = await readProjectState(projectRoot);
  } catch (error) {
    warnings.push(
      `the saved context ${paths.state} failed to verify (${describeError(error)}); new sessions restore from the newest session state or checkpoint that verifies, and the next save replaces it`,
    );
  }
  let health: Health | null = null;
  try {
    const guard = readNewestGuardState(projectRoot);
    health = guard === null ? null : healthOf(guard);
  } catch (error) {
    warnings.push(`context guard state unreadable: ${describeError(error)}`);
  }
  let lastAudit: Status["lastAudit"] = null;
  try {
    lastAudit = (await readAuditReport(projectRoot)).compactions[0] ?? null;
  } catch (error) {
    warnings.push(`compaction audits unreadable: ${describeError(error)}`);
  }
  let storage: Status["storage"] = { bytes: 0, checkpoints: 0, snapshots: 0 };
  try {
    const [bytes, checkpoints, snapshots] = await Promise.all([
      diskUsage(paths.ctxDir),
      listCheckpoints(projectRoot),
      scanSnapshotFolder(paths.snapshots),
    ]);
    storage = { bytes, checkpoints: checkpoints.length, snapshots: snapshots.files.size };
  } catch (error) {
    warnings.push(`could not measure ${paths.ctxDir}: ${describeError(error)}`);
  }
  return buildStatus({
    version,
    health,
    lastAudit,
    saved,
    storage,
    root: paths.root,
    ctxDir: paths.ctxDir,
    initialized: existsSync(paths.ctxDir),
    sessions,
    recovery,
    warnings,
    ...(recent === undefined ? {} : { recent }),
  });
}

/** Reads only what the decision needs: no checkpoint is opened unless a session crashed. */
async function detectRecovery(
  projectRoot: string,
  sessions: SessionsFile | null,
  now: Date,
  isAlive: IsProcessAlive,
  warnings: string[],
): Promise<Recovery | null> {
  const unended = unendedSessions(sessions);
  if (unended.length === 0) return null;
  const transcriptModifiedAt = new Map(
    await Promise.all(unended.map(async (s) => [s.sessionId, await modifiedAt(s.transcriptPath)] as const)),
  );
  const crashed = crashedSessions({ sessions, transcriptModifiedAt, now, isAlive });
  if (crashed.length === 0) return null;
  // Newest crashed session first; the first that has a checkpoint of its own is the one to offer.
  const checkpoints = new Map<string, CheckpointRef>();
  const reader = checkpointReader(projectRoot, await listCheckpoints(projectRoot), warnings);
  for (const session of crashed) {
    const checkpoint = await reader.newestRecovering(session);
    if (checkpoint === null) continue;
    checkpoints.set(session.sessionId, checkpoint);
    break;
  }
  return decideRecovery({ sessions, transcriptModifiedAt, checkpoints, now, isAlive });
}

async function modifiedAt(path: string | null): Promise<Date | null> {
  if (path === null) return null;
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw error;
  });
  return info?.mtime ?? null;
}

/** Reads each checkpoint at most once across sessions; a damaged one is one warning, then skipped. */
function checkpointReader(projectRoot: string, entries: CheckpointEntry[], warnings: string[]) {
  const read = new Map<string, CheckpointRef | null>();
  async function verified(id: string): Promise<CheckpointRef | null> {
    const known = read.get(id);
    if (known !== undefined) return known;
    let meta: CheckpointRef | null = null;
    try {
      meta = (await readCheckpoint(projectRoot, id, ContextStateSchema))?.meta ?? null;
    } catch (error) {
      if (!isCtxError(error) || (error.code !== "STATE_CORRUPT" && error.code !== "STATE_UNSUPPORTED_VERSION")) {
        throw error;
      }
      warnings.push(`checkpoint ${id} is damaged and was skipped: ${describeError(error)}`);
    }
    read.set(id, meta);
    return meta;
  }
  return {
    /** Newest first, the first checkpoint written by `session` after its start that verifies. */
    async newestRecovering(session: SessionRecord): Promise<CheckpointRef | null> {
      for (const entry of entries) {
        // Ids carry their time: anything not after the start is older still, so stop there.
        if (!canRecoverFrom(session, { sessionId: session.sessionId, createdAt: entry.createdAt })) return null;
        const meta = await verified(entry.id);
        if (meta !== null && meta.sessionId === session.sessionId) return meta;
      }
      return null;
    },
  };
}
