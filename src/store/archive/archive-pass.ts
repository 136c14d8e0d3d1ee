// One archive pass (`ctx archive run`, `ctx serve` once a day, and the detached run SessionStart starts at
// most once an hour): read `cleanupPeriodDays` as Claude Code does, archive every transcript within
// `archive.daysBeforeCleanup` days of deletion, then apply the size cap. One pass at a time (a lock in the
// archive folder); a session that fails is reported and the pass goes on.
import { join } from "node:path";
import * as z from "zod/mini";
import { claudeConfigDir, readCleanupPeriod } from "../../config/claude-paths.ts";
import type { Config } from "../../config/schema.ts";
import { selectArchivesToPrune, transcriptsDue } from "../../core/archive/plan.ts";
import { describeError } from "../../errors.ts";
import { ensurePrivateDir } from "../files/atomic-write.ts";
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

export const ArchiveRunReportSchema = z.object({
  cleanupPeriodDays: z.number(),
  /** The settings file that set the period, or "default". */
  cleanupPeriodSource: z.string(),
  /** Transcripts looked at, and how many were due. */
  scanned: z.int(),
  archived: z.array(z.object({ sessionId: z.string(), project: z.string(), bytes: z.int(), files: z.int() })),
  failed: z.array(z.object({ sessionId: z.string(), problem: z.string() })),
  pruned: z.array(z.string()),
});
export type ArchiveRunReport = z.infer<typeof ArchiveRunReportSchema>;

export interface ArchivePassDeps {
  env: NodeJS.ProcessEnv;
  config: Config;
  /** The project whose `.claude/settings*.json` may set cleanupPeriodDays. */
  projectRoot?: string;
  now: () => Date;
}

export async function runArchivePass(deps: ArchivePassDeps): Promise<ArchiveRunReport> {
  const dir = archiveDir(deps.env);
  await ensurePrivateDir(dir);
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
        daysBeforeCleanup: deps.config.archive.daysBeforeCleanup,
      });
      const report: ArchiveRunReport = {
        cleanupPeriodDays: period.days,
        cleanupPeriodSource: period.source,
        scanned: transcripts.length,
        archived: [],
        failed: [],
        pruned: [],
      };
      for (const transcript of due) {
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
      report.pruned = await pruneArchive(deps.env, deps.config.archive.maxMegabytes);
      await markArchiveRun(deps.env, deps.now());
      return report;
    },
    { timeoutMs: 1_000 },
  );
}

/** Applies the size cap (MiB; 0 keeps everything), oldest archived first, pinned sessions kept. */
export async function pruneArchive(env: NodeJS.ProcessEnv, maxMegabytes: number): Promise<string[]> {
  const pruned = selectArchivesToPrune(await listArchived(env), await pinnedArchives(env), maxMegabytes * 1024 * 1024);
  await removeArchived(
    env,
    pruned.map((meta) => meta.sessionId),
  );
  return pruned.map((meta) => meta.sessionId);
}
