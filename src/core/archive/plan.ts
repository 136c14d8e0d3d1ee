// What the transcript archive does (pure): which transcripts are due (Claude Code deletes a transcript whose
// last write is older than `cleanupPeriodDays`; ctx copies it `daysBeforeCleanup` days before that), which are
// too large to copy, and which archived sessions are pruned: past `maxAgeDays` since the session's last write,
// then past the size cap oldest archived first; pinned ones never.
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
      /** Kept whatever the age limit and the size cap (`ctx archive pin`). */
      pinned: z.boolean(),
      /** When the age limit prunes it (its transcript's last write + maxAgeDays); null when pinned or kept forever. */
      expiresAt: z.nullable(z.string()),
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
 * run yet), not archived already as they stand (same size and last write as the archived copy), and not older
 * than `maxAgeDays` (when set): the age limit would prune such a copy at once.
 */
export function transcriptsDue<T extends TranscriptOnDisk>(
  transcripts: readonly T[],
  archived: ReadonlyMap<string, ArchiveMeta>,
  options: { now: number; cleanupPeriodDays: number; daysBeforeCleanup: number; maxAgeDays?: number },
): T[] {
  const cutoff = options.now - Math.max(0, options.cleanupPeriodDays - options.daysBeforeCleanup) * DAY_MS;
  const tooOld = (options.maxAgeDays ?? 0) > 0 ? options.now - (options.maxAgeDays ?? 0) * DAY_MS : -Infinity;
  return transcripts.filter((t) => {
    if (t.mtimeMs > cutoff || t.mtimeMs < tooOld) return false;
    const copy = archived.get(t.sessionId)?.files[0];
    return copy === undefined || copy.bytes !== t.bytes || Math.abs(copy.mtimeMs - t.mtimeMs) > 1;
  });
}

/** Splits transcripts into those within `maxBytes` (0: no limit) and those over it, which are not copied. */
export function splitBySize<T extends TranscriptOnDisk>(
  transcripts: readonly T[],
  maxBytes: number,
): { fit: T[]; oversize: T[] } {
  if (maxBytes <= 0) return { fit: [...transcripts], oversize: [] };
  return {
    fit: transcripts.filter((t) => t.bytes <= maxBytes),
    oversize: transcripts.filter((t) => t.bytes > maxBytes),
  };
}

/** When the age limit prunes an archived session: its transcript's last write + `maxAgeDays`; null when never. */
export function archiveExpiry(meta: ArchiveMeta, maxAgeDays: number, pinned: boolean): number | null {
  const lastWrite = meta.files[0]?.mtimeMs ?? Date.parse(meta.archivedAt);
  return pinned || maxAgeDays <= 0 ? null : lastWrite + maxAgeDays * DAY_MS;
}

export interface PrunePlan {
  /** Past the age limit. */
  expired: ArchiveMeta[];
  /** Over the size cap once the expired ones are gone. */
  overCap: ArchiveMeta[];
}

/** What to prune: the unpinned sessions past `maxAgeDays` (0: no limit), then what the size cap still asks. */
export function planPrune(
  archives: readonly ArchiveMeta[],
  pinned: ReadonlySet<string>,
  options: { now: number; maxAgeDays: number; maxBytes: number },
): PrunePlan {
  const expired = archives.filter((meta) => {
    const expiry = archiveExpiry(meta, options.maxAgeDays, pinned.has(meta.sessionId));
    return expiry !== null && expiry <= options.now;
  });
  const kept = archives.filter((meta) => !expired.includes(meta));
  return { expired, overCap: selectArchivesToPrune(kept, pinned, options.maxBytes) };
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

export function toArchiveListing(
  metas: readonly ArchiveMeta[],
  pinned: ReadonlySet<string> = new Set(),
  maxAgeDays = 0,
): ArchiveListing {
  const sorted = [...metas].sort((a, b) => b.archivedAt.localeCompare(a.archivedAt));
  return {
    sessions: sorted.map((m) => {
      const expiry = archiveExpiry(m, maxAgeDays, pinned.has(m.sessionId));
      return {
        sessionId: m.sessionId,
        project: m.project,
        archivedAt: m.archivedAt,
        bytes: m.bytes,
        transcriptPath: m.transcriptPath,
        pinned: pinned.has(m.sessionId),
        expiresAt: expiry === null ? null : new Date(expiry).toISOString(),
      };
    }),
  };
}
