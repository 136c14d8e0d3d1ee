// Crash recovery: deciding which Claude Code sessions ended without their session-end hook (the process
// was killed, the machine slept for good) and which checkpoint brings the newest one's context back. Pure:
// the store reads the sessions file, the transcripts' mtimes and the checkpoints, and asks here; whether a
// process is alive comes in as a function.
import * as z from "zod/mini";
import type { SessionRecord, SessionsFile } from "./seen.ts";

/** Without a recorded pid, a transcript unchanged for longer than this is taken for a session no longer running. */
export const SESSION_QUIET_MS = 10 * 60 * 1000;

export const RecoverySchema = z.object({
  sessionId: z.string(),
  /** The newest checkpoint of that session that verifies: `ctx restore --checkpoint <id>`. */
  checkpointId: z.string(),
  /** ISO 8601: the transcript's last change, or the checkpoint's time when the transcript is gone. */
  lastActivity: z.string(),
});
export type Recovery = z.infer<typeof RecoverySchema>;

export type IsProcessAlive = (pid: number) => boolean;

export interface CheckpointRef {
  id: string;
  sessionId: string;
  createdAt: string;
}

/** Sessions with no end recorded, newest first: each is running or crashed. */
export function unendedSessions(sessions: SessionsFile | null): SessionRecord[] {
  return sessions?.sessions.filter((session) => session.endedAt === null) ?? [];
}

/** No change to the transcript for longer than `quietMs`; a transcript that is gone (null) is quiet too. */
export function isSessionQuiet(transcriptModifiedAt: Date | null, now: Date, quietMs: number = SESSION_QUIET_MS) {
  return transcriptModifiedAt === null || now.getTime() - transcriptModifiedAt.getTime() > quietMs;
}

export interface CrashEvidence {
  transcriptModifiedAt: Date | null;
  now: Date;
  isAlive: IsProcessAlive;
  quietMs?: number;
}

/**
 * An unended session crashed when the Claude Code process it recorded is gone. Sessions recorded without
 * a pid (before pids were kept) fall back to a transcript quiet for `quietMs`, which an idle live session
 * also matches: the pid is what tells them apart.
 */
export function hasSessionCrashed(session: SessionRecord, evidence: CrashEvidence): boolean {
  if (session.endedAt !== null) return false;
  // 0 and negative pids name process groups for kill(); such a record says nothing about the session.
  const pid = session.pid;
  if (typeof pid === "number" && pid > 0) return !evidence.isAlive(pid);
  return isSessionQuiet(evidence.transcriptModifiedAt, evidence.now, evidence.quietMs);
}

/** A checkpoint can recover `session` when that session wrote it after its (first) start. */
export function canRecoverFrom(session: SessionRecord, checkpoint: { sessionId: string; createdAt: string }): boolean {
  if (checkpoint.sessionId !== session.sessionId) return false;
  if (session.startedAt === null) return true;
  return Date.parse(checkpoint.createdAt) > Date.parse(session.startedAt);
}

export interface CrashInput {
  sessions: SessionsFile | null;
  /** mtime of each unended session's transcript, by session id; null (or missing) when it is gone. */
  transcriptModifiedAt: ReadonlyMap<string, Date | null>;
  now: Date;
  isAlive: IsProcessAlive;
  quietMs?: number;
}

/** The unended sessions that crashed, newest first. */
export function crashedSessions(input: CrashInput): SessionRecord[] {
  return unendedSessions(input.sessions).filter((session) =>
    hasSessionCrashed(session, {
      ...input,
      transcriptModifiedAt: input.transcriptModifiedAt.get(session.sessionId) ?? null,
    }),
  );
}

export interface RecoveryInput extends CrashInput {
  /** The newest checkpoint that verifies, by the session that wrote it (only crashed sessions need one). */
  checkpoints: ReadonlyMap<string, CheckpointRef>;
}

/** The recovery offer: the newest crashed session with a checkpoint it wrote after its start that verifies. */
export function decideRecovery(input: RecoveryInput): Recovery | null {
  for (const session of crashedSessions(input)) {
    const checkpoint = input.checkpoints.get(session.sessionId);
    if (checkpoint === undefined || !canRecoverFrom(session, checkpoint)) continue;
    return {
      sessionId: session.sessionId,
      checkpointId: checkpoint.id,
      lastActivity: input.transcriptModifiedAt.get(session.sessionId)?.toISOString() ?? checkpoint.createdAt,
    };
  }
  return null;
}

/** The line `ctx status` prints, with the exact command to run. */
export function formatRecoveryLine(recovery: Recovery): string {
  return (
    `interrupted: session ${recovery.sessionId} ended without session-end (last activity ${recovery.lastActivity}); ` +
    `recover its context with: ctx restore --checkpoint ${recovery.checkpointId}`
  );
}
