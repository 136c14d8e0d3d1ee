// One archive pass (`ctx archive run`, `ctx serve` once a day, and the detached run SessionStart starts at
// most once an hour): read `cleanupPeriodDays` as Claude Code does, archive every transcript within
// `archive.daysBeforeCleanup` days of deletion (skipping, with a logged line, any over
// `archive.maxTranscriptMegabytes`), then prune what is past `archive.maxAgeDays` or the size cap. One pass at a
// time (a lock in the archive folder); a session that fails is reported and the pass goes on. Its report is
// kept as `last-pass.json`, so `ctx archive` can show what a detached pass did.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import { claudeConfigDir, readCleanupPeriod } from "../../config/claude-paths.ts";
import type { Config } from "../../config/schema.ts";
import { planPrune, splitBySize, transcriptsDue } from "../../core/archive/plan.ts";
import { formatBytes } from "../../core/snapshots/summary.ts";
import { describeError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { withLock } from "../files/lock.ts";
import { markArchiveRun } from "./archive-schedule.ts";
import {
  archiveDir,
  archiveSession,
  discoverTranscripts,
  listArchived,
  pinnedArchives,
  removeArchived,
} from "./archive-store.ts";

const MIB = 1024 * 1024;

export const ArchiveRunReportSchema = z.object({
  cleanupPeriodDays: z.number(),
  /** The settings file that set the period, or "default". */
  cleanupPeriodSource: z.string(),
  /** Transcripts looked at, and how many were due. */
  scanned: z.int(),
  archived: z.array(z.object({ sessionId: z.string(), project: z.string(), bytes: z.int(), files: z.int() })),
  /** Due but over archive.maxTranscriptMegabytes: not copied. */
  skipped: z.array(z.object({ sessionId: z.string(), project: z.string(), path: z.string(), bytes: z.number() })),
  failed: z.array(z.object({ sessionId: z.string(), problem: z.string() })),
  /** Every session pruned (past the age limit or the size cap). */
  pruned: z.array(z.string()),
  /** Those of `pruned` past archive.maxAgeDays. */
  expired: z.array(z.string()),
  finishedAt: z.optional(z.string()),
});
export type ArchiveRunReport = z.infer<typeof ArchiveRunReportSchema>;

export interface ArchivePassDeps {
  env: NodeJS.ProcessEnv;
  config: Config;
  /** The project whose `.claude/settings*.json` may set cleanupPeriodDays. */
  projectRoot?: string;
  now: () => Date;
  logger: Logger;
}

export const lastPassPath = (env: NodeJS.ProcessEnv) => join(archiveDir(env), "last-pass.json");

export async function runArchivePass(deps: ArchivePassDeps): Promise<ArchiveRunReport> {
  const dir = archiveDir(deps.env);
  await ensurePrivateDir(dir);
  const settings = deps.config.archive;
  return withLock(
    join(dir, "pass"),
    async () => {
      const period = readCleanupPeriod(deps.env, deps.projectRoot);
      const claudeDir = claudeConfigDir(deps.env);
      const transcripts = await discoverTranscripts(claudeDir);
      const archived = new Map((await listArchived(deps.env)).map((meta) => [meta.sessionId, meta]));
      const due = transcriptsDue(transcripts, archived, {
        now: deps.now().getTime(),
        cleanupPeriodDays: period.days,
        daysBeforeCleanup: settings.daysBeforeCleanup,
        maxAgeDays: settings.maxAgeDays,
      });
      const { fit, oversize } = splitBySize(due, settings.maxTranscriptMegabytes * MIB);
      const report: ArchiveRunReport = {
        cleanupPeriodDays: period.days,
        cleanupPeriodSource: period.source,
        scanned: transcripts.length,
        archived: [],
        skipped: oversize.map((t) => ({ sessionId: t.sessionId, project: t.project, path: t.path, bytes: t.bytes })),
        failed: [],
        pruned: [],
        expired: [],
      };
      for (const t of oversize) {
        deps.logger.warn(
          `archive: skipped ${t.path} (${formatBytes(t.bytes)}), over archive.maxTranscriptMegabytes (${settings.maxTranscriptMegabytes} MiB)`,
        );
      }
      for (const transcript of fit) {
        try {
          const meta = await archiveSession(deps.env, claudeDir, transcript, deps.now());
          report.archived.push({
            sessionId: meta.sessionId,
            project: meta.project,
            bytes: meta.bytes,
            files: meta.files.length,
          });
        } catch (error) {
          report.failed.push({ sessionId: transcript.sessionId, problem: describeError(error) });
        }
      }
      const pruned = await pruneArchive(deps.env, {
        maxMegabytes: settings.maxMegabytes,
        maxAgeDays: settings.maxAgeDays,
        now: deps.now(),
      });
      report.pruned = pruned.pruned;
      report.expired = pruned.expired;
      report.finishedAt = deps.now().toISOString();
      await markArchiveRun(deps.env, deps.now());
      await writeFileAtomic(lastPassPath(deps.env), `${JSON.stringify(report, null, 2)}\n`);
      return report;
    },
    { timeoutMs: 1_000 },
  );
}

/**
 * Prunes the unpinned sessions past `maxAgeDays` (by their transcript's last write; 0 keeps them), then the oldest
 * archived past the size cap (MiB; 0 keeps everything).
 */
export async function pruneArchive(
  env: NodeJS.ProcessEnv,
  limits: { maxMegabytes: number; maxAgeDays: number; now: Date },
): Promise<{ pruned: string[]; expired: string[] }> {
  const plan = planPrune(await listArchived(env), await pinnedArchives(env), {
    now: limits.now.getTime(),
    maxAgeDays: limits.maxAgeDays,
    maxBytes: limits.maxMegabytes * MIB,
  });
  const all = [...plan.expired, ...plan.overCap].map((meta) => meta.sessionId);
  await removeArchived(env, all);
  return { pruned: all, expired: plan.expired.map((meta) => meta.sessionId) };
}

/** What the last pass reported, or null when none finished yet (or its file does not parse). */
export async function readLastPass(env: NodeJS.ProcessEnv): Promise<ArchiveRunReport | null> {
  try {
    const parsed = z.safeParse(ArchiveRunReportSchema, JSON.parse(await readFile(lastPassPath(env), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
