// `ctx doctor`'s line on Claude Code's transcript cleanup and ctx's archive of what it deletes (pure).
import { formatBytes } from "../snapshots/summary.ts";
import { type Finding, ok, warn } from "./doctor-report.ts";

export interface ArchiveFacts {
  cleanupPeriodDays: number;
  /** The settings file that set it, or "default". */
  cleanupPeriodSource: string;
  enabled: boolean;
  daysBeforeCleanup: number;
  /** archive.maxAgeDays: how long copies are kept after a session's last write (0: forever). */
  maxAgeDays: number;
  sessions: number;
  bytes: number;
  lastRun: string | null;
}

export function checkTranscriptArchive(facts: ArchiveFacts): Finding {
  const period = `Claude Code deletes transcripts ${facts.cleanupPeriodDays} day(s) after their last write (cleanupPeriodDays, ${facts.cleanupPeriodSource === "default" ? "the default" : facts.cleanupPeriodSource})`;
  if (!facts.enabled) {
    return warn(
      "transcript-archive",
      `${period}; ctx's archive is off, so those sessions cannot be resumed or forked afterwards`,
      "set archive.enabled to true in ~/.ctx/config.json (or run `ctx archive run` by hand)",
    );
  }
  const last = facts.lastRun === null ? "no pass yet" : `last pass ${facts.lastRun}`;
  const kept = facts.maxAgeDays > 0 ? `for ${facts.maxAgeDays} day(s) after their last write` : "forever";
  return ok(
    "transcript-archive",
    `${period}; ctx archives them ${facts.daysBeforeCleanup} day(s) before and keeps them, unredacted, ${kept} (archive.maxAgeDays): ${facts.sessions} session(s), ${formatBytes(facts.bytes)} in the archive (${last})`,
  );
}
