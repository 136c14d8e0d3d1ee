// Pure bookkeeping of the Claude Code sessions ctx has seen in a project (from SessionStart and
// SessionEnd hooks): newest first, bounded, one entry per session id.
import type { SessionRecord, SessionsFile } from "./seen-schema.ts";

export const MAX_SESSIONS_KEPT = 200;

export type { SessionRecord, SessionsFile } from "./seen-schema.ts";

export interface SessionSighting {
  sessionId: string;
  transcriptPath: string;
  cwd: string;
  at: Date;
}

function upsert(
  file: SessionsFile | null,
  sessionId: string,
  change: (previous: SessionRecord | undefined) => SessionRecord,
): SessionsFile {
  const sessions = file?.sessions ?? [];
  const previous = sessions.find((s) => s.sessionId === sessionId);
  const next = change(previous);
  const rest = sessions.filter((s) => s.sessionId !== sessionId);
  return { sessions: [next, ...rest].slice(0, MAX_SESSIONS_KEPT) };
}

export function recordSessionStart(
  file: SessionsFile | null,
  seen: SessionSighting & { source: string; model: string | null; pid?: number | null },
): SessionsFile {
  const at = seen.at.toISOString();
  // A start without a pid leaves it unknown: an earlier start's pid belongs to a process that may be gone.
  return upsert(file, seen.sessionId, (previous) => ({
    sessionId: seen.sessionId,
    transcriptPath: seen.transcriptPath || (previous?.transcriptPath ?? null),
    cwd: seen.cwd,
    source: seen.source,
    model: seen.model ?? previous?.model ?? null,
    // A resumed or compacted session keeps its first start time.
    startedAt: previous?.startedAt ?? at,
    endedAt: null,
    endReason: null,
    starts: (previous?.starts ?? 0) + 1,
    lastSeenAt: at,
    ...(seen.pid === undefined ? {} : { pid: seen.pid }),
  }));
}

export function recordSessionEnd(
  file: SessionsFile | null,
  seen: SessionSighting & { reason: string | null },
): SessionsFile {
  const at = seen.at.toISOString();
  return upsert(file, seen.sessionId, (previous) => ({
    sessionId: seen.sessionId,
    transcriptPath: seen.transcriptPath || (previous?.transcriptPath ?? null),
    cwd: previous?.cwd ?? seen.cwd,
    source: previous?.source ?? null,
    model: previous?.model ?? null,
    startedAt: previous?.startedAt ?? null,
    endedAt: at,
    endReason: seen.reason,
    starts: previous?.starts ?? 0,
    lastSeenAt: at,
    ...(previous?.pid === undefined ? {} : { pid: previous.pid }),
  }));
}
