// Crash recovery: deciding that the newest Claude Code session ended without its session-end hook (the
// process was killed, the machine slept for good) and which checkpoint brings its context back. Pure:
// the store reads the sessions file, the transcript's mtime and the checkpoints, and asks here.
import * as z from "zod/mini";
import type { SessionRecord, SessionsFile } from "./sessions.ts";

/** A transcript unchanged for longer than this belongs to a session that is no longer running. */
export const SESSION_QUIET_MS = 10 * 60 * 1000;

export const RecoverySchema = z.object({
  sessionId: z.string(),
  /** The newest checkpoint of that session that verifies: `ctx restore --checkpoint <id>`. */
  checkpointId: z.string(),
  /** ISO 8601: the transcript's last change, or the checkpoint's time when the transcript is gone. */
  lastActivity: z.string(),
});
export type Recovery = z.infer<typeof RecoverySchema>;

/** The newest session, when no end is recorded for it (a candidate for recovery). */
export function unendedNewestSession(sessions: SessionsFile | null): SessionRecord | null {
  const newest = sessions?.sessions[0];
  return newest !== undefined && newest.endedAt === null ? newest : null;
}

/** No change to the transcript for longer than `quietMs`; a transcript that is gone (null) is quiet too. */
export function isSessionQuiet(transcriptModifiedAt: Date | null, now: Date, quietMs: number = SESSION_QUIET_MS) {
  return transcriptModifiedAt === null || now.getTime() - transcriptModifiedAt.getTime() > quietMs;
}

/** A checkpoint can recover `session` when that session wrote it after its (first) start. */
export function canRecoverFrom(session: SessionRecord, checkpoint: { sessionId: string; createdAt: string }): boolean {
  if (checkpoint.sessionId !== session.sessionId) return false;
  if (session.startedAt === null) return true;
  return Date.parse(checkpoint.createdAt) > Date.parse(session.startedAt);
}

export interface RecoveryInput {
  sessions: SessionsFile | null;
  /** mtime of the newest session's transcript; null when it is gone (or the session has none). */
  transcriptModifiedAt: Date | null;
  /** The newest checkpoint of that session that verifies, if any. */
  checkpoint: { id: string; sessionId: string; createdAt: string } | null;
  now: Date;
  quietMs?: number;
}

/** The recovery offer: the newest session is unended, quiet, and a checkpoint it wrote after its start verifies. */
export function decideRecovery(input: RecoveryInput): Recovery | null {
  const session = unendedNewestSession(input.sessions);
  if (session === null || !isSessionQuiet(input.transcriptModifiedAt, input.now, input.quietMs)) return null;
  if (input.checkpoint === null || !canRecoverFrom(session, input.checkpoint)) return null;
  return {
    sessionId: session.sessionId,
    checkpointId: input.checkpoint.id,
    lastActivity: input.transcriptModifiedAt?.toISOString() ?? input.checkpoint.createdAt,
  };
}

/** The line `ctx status` prints, with the exact command to run. */
export function formatRecoveryLine(recovery: Recovery): string {
  return (
    `interrupted: session ${recovery.sessionId} ended without session-end (last activity ${recovery.lastActivity}); ` +
    `recover its context with: ctx restore --checkpoint ${recovery.checkpointId}`
  );
}
