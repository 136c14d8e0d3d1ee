// The shared body of `ctx index` and `ctx reindex`: run syncIndex with a progress display and Ctrl-C as a
// clean stop between files, then print the summary (or the SyncSummary as JSON).

import { describeError } from "../errors.ts";
import { resolveClaudeDir, resolveIndexPath } from "../search/paths.ts";
import { READ_VERSION, SCHEMA_VERSION } from "../search/session-index/schema.ts";
import { type SyncProgress, type SyncSummary, syncIndex } from "../search/sync/sync-index.ts";
import { sharedRootsForIngest } from "../store/team/team-state.ts";
import type { CliContext } from "./command-io.ts";
import { createIndexProgress } from "./index-progress.ts";
import { formatJson } from "./output.ts";

export interface IndexRunOptions {
  claudeDir?: string;
  full?: boolean;
  json?: boolean;
  quiet?: boolean;
  /** `--file`: only this session's transcript. */
  file?: string;
}

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells expect. */
export const INTERRUPTED_EXIT_CODE = 130;

export async function runIndexSync(
  ctx: CliContext,
  options: IndexRunOptions,
  hooks: { onProgress?: (progress: SyncProgress) => void } = {},
): Promise<SyncSummary> {
  const claudeDir = resolveClaudeDir({ claudeDir: options.claudeDir, env: ctx.env });
  const dbPath = resolveIndexPath(ctx.env);
  const quiet = options.quiet === true;
  const controller = new AbortController();
  const progress = createIndexProgress(ctx, { quiet: quiet || options.json === true });
  const release = ctx.onInterrupt?.(() => controller.abort()) ?? (() => {});
  let summary: SyncSummary;
  // Shared projects' sessions are queued in the team outbox as they are ingested, then pushed by a background pusher.
  const teamRoots = await sharedRootsForIngest(ctx.env);
  let teamQueued = 0;
  try {
    summary = await syncIndex({
      claudeDir,
      dbPath,
      full: options.full === true,
      ...(options.file === undefined ? {} : { onlyTranscript: options.file }),
      signal: controller.signal,
      onProgress: (p) => {
        progress.update(p);
        hooks.onProgress?.(p);
      },
      onRebuild: (from) => {
        if (!quiet) ctx.err(`ctx: ${rebuildNotice(from)}\n`);
      },
      onReread: (from) => {
        if (!quiet) ctx.err(`ctx: ${rereadNotice(from)}\n`);
      },
      onFileError: (path, error) => ctx.logger.warn(`could not index ${path}: ${describeError(error)}`),
      libraryEnv: ctx.env,
      teamShare: {
        roots: teamRoots,
        onQueued: () => {
          teamQueued += 1;
        },
      },
    });
  } finally {
    progress.stop();
    release();
  }
  if (teamQueued > 0 && ctx.cliPath) await startTeamPusher(ctx, ctx.cliPath);
  if (options.json === true) ctx.out(formatJson(summary));
  else if (!quiet) {
    if (summary.filesScanned === 0) ctx.err(`No transcripts found under ${claudeDir}/projects.\n`);
    ctx.out(formatSyncSummary(summary, options.full === true));
  }
  if (summary.interrupted) {
    if (!quiet) ctx.err("interrupted — run `ctx index` again to resume\n");
    ctx.setExitCode(INTERRUPTED_EXIT_CODE);
  }
  return summary;
}

/** Why a sync reads every transcript again: the index on disk was made by another version of ctx. */
export function rebuildNotice(fromFormat: number): string {
  const format = fromFormat > 0 ? ` (format ${fromFormat}, this ctx uses ${SCHEMA_VERSION})` : "";
  return `the session index was made by another version of ctx${format}; building it again from the transcripts`;
}

/** Why a sync reads every transcript again into an index it keeps: this ctx reads them by newer rules. */
export function rereadNotice(fromVersion: number): string {
  return (
    `this ctx reads transcripts by newer rules (${fromVersion} -> ${READ_VERSION}); reading every session again ` +
    "(searches use what is indexed meanwhile)"
  );
}

export function formatSyncSummary(summary: SyncSummary, full = false): string {
  const number = (value: number) => value.toLocaleString("en-US");
  const seconds = (summary.durationMs / 1000).toFixed(1);
  const files = `${number(summary.filesIngested)} file(s) read, ${number(summary.filesSkippedUnchanged)} unchanged`;
  const skipped =
    summary.skippedLines + summary.unknownEntries === 0
      ? ""
      : `, ${number(summary.skippedLines)} unreadable line(s) and ${number(summary.unknownEntries)} unknown entr(ies) skipped`;
  const topics = summary.memoryTopics;
  const memory =
    topics.indexed + topics.removed === 0
      ? ""
      : `; ${number(topics.indexed)} memory topic(s) indexed, ${number(topics.removed)} dropped`;
  // Read again from their start (--full, an index rebuilt or read by older rules), a file's messages are not new.
  const again = full || summary.rebuiltFromFormat !== null || summary.rereadFromVersion !== null;
  const read = again
    ? `${number(summary.messages)} message(s) and ${number(summary.chunks)} chunk(s) read again`
    : `${number(summary.messages)} new message(s), ${number(summary.chunks)} new chunk(s)`;
  return `${number(summary.sessionsTotal)} session(s) indexed: ${files}; ${read}${skipped}${memory} in ${seconds} s\n`;
}

/** Never fails the index: the outbox keeps the work for the next pusher or `ctx team push`. */
async function startTeamPusher(ctx: CliContext, cliPath: string): Promise<void> {
  try {
    const { startBackgroundPusher } = await import("../team/pusher.ts");
    const pid = startBackgroundPusher({ env: ctx.env, cliPath });
    ctx.logger.debug(`team pusher started${pid === undefined ? "" : ` (pid ${pid})`}`);
  } catch (error) {
    ctx.logger.debug(`could not start the team pusher: ${describeError(error)}`);
  }
}
