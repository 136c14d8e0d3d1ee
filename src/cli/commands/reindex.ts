// `ctx reindex [--claude-dir DIR]`: throw the session index away and build it again from the transcripts;
// also the cure for a damaged index file.
import { existsSync, renameSync, rmSync } from "node:fs";
import type { Command } from "commander";
import { isCtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { emptyIndex, vacuumIndex } from "../../search/session-index/maintenance.ts";
import { integrityProblems, isCorruptionError, openSessionIndex } from "../../search/session-index/session-index.ts";
import { startRebuildRecord } from "../../search/sync/rebuild-record.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { type IndexRunOptions, runIndexSync } from "../index-run.ts";

export function registerReindexCommand(program: Command, ctx: CliContext): void {
  program
    .command("reindex")
    .description(COMMANDS.reindex.description)
    .option("--claude-dir <dir>", "Claude Code's folder (default: CLAUDE_CONFIG_DIR, else ~/.claude)")
    .option("--json", "print the sync summary as JSON")
    .option("--quiet", "no progress and no summary")
    .action(async (options: IndexRunOptions) => {
      // The run records itself (`ctx stats`, and /reindex's ctx_index tool, read how it is going and how it ended).
      const record = await startRebuildRecord(ctx.env, { onWriteError: (message) => ctx.logger.warn(message) });
      try {
        const movedAside = clearSessionIndex(resolveIndexPath(ctx.env), new Date());
        if (movedAside !== null && options.quiet !== true) {
          ctx.err(`ctx: the session index was damaged; kept it as ${movedAside} and building a new one\n`);
        }
        const summary = await runIndexSync(
          ctx,
          { ...options, full: true },
          { onProgress: (p) => record.progress(p.done, p.total) },
        );
        await record.finish(summary.interrupted ? "interrupted" : "done", summary.sessionsTotal);
      } catch (error) {
        await record.fail(error);
        throw error;
      }
    });
}

/**
 * Empties a sound index in place (a running `ctx serve` keeps using the same file). A damaged one (not a
 * database, or a page SQLite reports as malformed, before or after the reset) is moved aside as
 * `index.db.damaged-<time>` with its WAL and shared-memory files deleted, so the sync starts a new file.
 * Returns where a damaged file was moved, else null.
 */
export function clearSessionIndex(dbPath: string, now: Date = new Date()): string | null {
  try {
    const index = openSessionIndex(dbPath);
    try {
      emptyIndex(index);
      try {
        vacuumIndex(index); // rewrites the (now empty) file: a damaged page fails here if not before
      } catch (error) {
        if (isCorruptionError(error)) throw error; // else (another process busy): the check below decides
      }
      const problems = integrityProblems(index);
      if (problems.length > 0) throw Object.assign(new Error(problems.join("; ")), { errcode: 11 });
    } finally {
      index.close();
    }
    return null;
  } catch (error) {
    const damaged = (isCtxError(error) && error.code === "INDEX_CORRUPT") || isCorruptionError(error);
    if (!damaged) throw error;
    const aside = `${dbPath}.damaged-${now.toISOString().replace(/[:.]/g, "-")}`;
    if (existsSync(dbPath)) renameSync(dbPath, aside);
    for (const suffix of ["-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
    return existsSync(aside) ? aside : null;
  }
}
