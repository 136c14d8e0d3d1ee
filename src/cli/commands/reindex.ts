// `ctx reindex [--claude-dir DIR]`: throw the session index away and build it again from the transcripts;
// also the cure for a damaged index file.
import { rmSync } from "node:fs";
import type { Command } from "commander";
import { isCtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { resetSchema } from "../../search/session-index/schema.ts";
import { openSessionIndex } from "../../search/session-index/session-index.ts";
import type { CliContext } from "../command-io.ts";
import { type IndexRunOptions, runIndexSync } from "../index-run.ts";

export function registerReindexCommand(program: Command, ctx: CliContext): void {
  program
    .command("reindex")
    .description("delete the session index and build it again (fixes a damaged index)")
    .option("--claude-dir <dir>", "Claude Code's folder (default: CLAUDE_CONFIG_DIR, else ~/.claude)")
    .option("--json", "print the sync summary as JSON")
    .option("--quiet", "no progress and no summary")
    .action(async (options: IndexRunOptions) => {
      clearSessionIndex(resolveIndexPath(ctx.env));
      await runIndexSync(ctx, { ...options, full: true });
    });
}

/**
 * Empties a readable index in place (a running `ctx serve` keeps using the same file) and deletes a
 * damaged one (with its WAL and shared-memory files) so the sync starts a new one.
 */
export function clearSessionIndex(dbPath: string): void {
  try {
    const index = openSessionIndex(dbPath);
    try {
      resetSchema(index.db);
    } finally {
      index.close();
    }
  } catch (error) {
    if (!isCtxError(error) || error.code !== "INDEX_CORRUPT") throw error;
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  }
}
