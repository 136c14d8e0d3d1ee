// What the transcript archive does (pure): which transcripts are due (Claude Code deletes a transcript whose
// last write is older than `cleanupPeriodDays`; ctx copies it `daysBeforeCleanup` days before that), and which
// archived sessions a size cap prunes (oldest archived first, pinned ones never).
import * as z from "zod/mini";

const DAY_MS = 86_400_000;

export const ArchivedFileSchema = z.object({
  /** Where Claude Code keeps it, relative to its config folder (`projects/<project>/<session>.jsonl`, …). */
  path: z.string(),
  bytes: z.int(),
  sha256: z.string(),
  mtimeMs: z.number(),
});
export type ArchivedFile = z.infer<typeof ArchivedFileSchema>;

/** What `<session>.meta.json` beside each container holds (also inside the container, checked on restore). */
export const ArchiveMetaSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  /** Claude Code's project folder name (`-home-me-repo`). */
  project: z.string(),
  /** The transcript's absolute path when it was archived (where `restore` puts it back). */
  transcriptPath: z.string(),
  /** The Claude Code config folder the paths are relative to. */
  claudeDir: z.string(),
  /** The folder the session ran in (its transcript's `cwd`), for the resume command; null when none is recorded. */
  cwd: z.nullable(z.string()),
  archivedAt: z.string(),
  /** The transcript first, then its subagent transcripts (and the rest of its session folder). */
  files: z.array(ArchivedFileSchema),
  /** The container's size on disk. */
  bytes: z.int(),
});
export type ArchiveMeta = z.infer<typeof ArchiveMetaSchema>;

/** `ctx archive list --json` (and what `run` reports archived). */
export const ArchiveListingSchema = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      project: z.string(),
      archivedAt: z.string(),
      bytes: z.int(),
      transcriptPath: z.string(),
    }),
  ),
});
export type ArchiveListing = z.infer<typeof ArchiveListingSchema>;

export interface TranscriptOnDisk {
  sessionId: string;
  path: string;
  mtimeMs: number;
  bytes: number;
}

/**
 * The transcripts to archive now: within `daysBeforeCleanup` of deletion (or past it: the sweep may not have
 * run yet), and not archived already as they stand (same size and last write as the archived copy).
 */
export function transcriptsDue<T extends TranscriptOnDisk>(
  transcripts: readonly T[],
  archived: ReadonlyMap<string, ArchiveMeta>,
  options: { now: number; cleanupPeriodDays: number; daysBeforeCleanup: number },
): T[] {
  const cutoff = options.now - Math.max(0, options.cleanupPeriodDays - options.daysBeforeCleanup) * DAY_MS;
  return transcripts.filter((t) => {
    if (t.mtimeMs > cutoff) return false;
    const copy = archived.get(t.sessionId)?.files[0];
    return copy === undefined || copy.bytes !== t.bytes || Math.abs(copy.mtimeMs - t.mtimeMs) > 1;
  });
}

/** Archived sessions to prune so the archive fits `maxBytes` (0: no cap), oldest archived first. */
export function selectArchivesToPrune(
  archives: readonly ArchiveMeta[],
  pinned: ReadonlySet<string>,
  maxBytes: number,
): ArchiveMeta[] {
  if (maxBytes <= 0) return [];
  let total = archives.reduce((sum, meta) => sum + meta.bytes, 0);
  const pruned: ArchiveMeta[] = [];
  const oldestFirst = [...archives].sort((a, b) => a.archivedAt.localeCompare(b.archivedAt));
  for (const meta of oldestFirst) {
    if (total <= maxBytes) break;
    if (pinned.has(meta.sessionId)) continue;
    pruned.push(meta);
    total -= meta.bytes;
  }
  return pruned;
}

export function toArchiveListing(metas: readonly ArchiveMeta[]): ArchiveListing {
  const sorted = [...metas].sort((a, b) => b.archivedAt.localeCompare(a.archivedAt));
  return {
    sessions: sorted.map((m) => ({
      sessionId: m.sessionId,
      project: m.project,
      archivedAt: m.archivedAt,
      bytes: m.bytes,
      transcriptPath: m.transcriptPath,
    })),
  };
}
