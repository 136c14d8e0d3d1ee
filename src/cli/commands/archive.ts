// `ctx archive [status]|run|list|restore <session>|prune|pin|unpin`: the copies of transcripts Claude Code's
// cleanup (`cleanupPeriodDays`) is about to delete, kept UNREDACTED in ~/.ctx/archive/ (store/archive/). `status`
// says so, with how long they are kept and what the last pass did; `run` does a pass at once; `restore` puts a
// session's files back byte for byte so `claude --resume` works again.
import type { Command } from "commander";
import * as z from "zod/mini";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { type ArchiveListing, toArchiveListing } from "../../core/archive/plan.ts";
import { forkCommandFor } from "../../core/search/fork-candidates.ts";
import { formatBytes } from "../../core/snapshots/summary.ts";
import { CtxError } from "../../errors.ts";
import { type ArchiveRunReport, pruneArchive, readLastPass, runArchivePass } from "../../store/archive/archive-pass.ts";
import { restoreArchived } from "../../store/archive/archive-restore.ts";
import {
  archiveBytes,
  archiveDir,
  listArchived,
  pinnedArchives,
  setArchivePinned,
} from "../../store/archive/archive-store.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

export const ArchiveRestoreReportSchema = z.object({
  sessionId: z.string(),
  restored: z.array(z.string()),
  unchanged: z.array(z.string()),
  /** How to resume it now. */
  resumeCommand: z.string(),
});
export type ArchiveRestoreReport = z.infer<typeof ArchiveRestoreReportSchema>;

/** `ctx archive --json`: where the archive is, that it is unredacted, how long it keeps, what the last pass did. */
export const ArchiveStatusSchema = z.object({
  directory: z.string(),
  /** Always false: the archive keeps exact copies so a restored session resumes. */
  redacted: z.literal(false),
  /** Whether ctx serve and SessionStart start passes (archive.enabled). */
  enabled: z.boolean(),
  sessions: z.int(),
  pinned: z.int(),
  bytes: z.int(),
  maxAgeDays: z.int(),
  maxMegabytes: z.int(),
  maxTranscriptMegabytes: z.int(),
  daysBeforeCleanup: z.int(),
  lastPass: z.nullable(z.custom<ArchiveRunReport>()),
});
export type ArchiveStatus = z.infer<typeof ArchiveStatusSchema>;

interface Flags {
  json?: boolean;
}

export function registerArchiveCommand(program: Command, ctx: CliContext): void {
  const archive = program.command("archive").description(COMMANDS.archive.description);
  const config = () => {
    const projectRoot = findProjectRoot(ctx.cwd, ctx.env);
    return { projectRoot, config: loadConfig({ projectRoot, env: ctx.env }) };
  };

  archive
    .command("status", { isDefault: true })
    .description("where the archive is, that it is unredacted, how long it keeps copies, what the last pass did")
    .option("--json", "print JSON for scripts")
    .action(async (flags: Flags) => {
      const settings = config().config.archive;
      const metas = await listArchived(ctx.env);
      const pinned = await pinnedArchives(ctx.env);
      const status: ArchiveStatus = {
        directory: archiveDir(ctx.env),
        redacted: false,
        enabled: settings.enabled,
        sessions: metas.length,
        pinned: metas.filter((m) => pinned.has(m.sessionId)).length,
        bytes: (await archiveBytes(ctx.env)).bytes,
        maxAgeDays: settings.maxAgeDays,
        maxMegabytes: settings.maxMegabytes,
        maxTranscriptMegabytes: settings.maxTranscriptMegabytes,
        daysBeforeCleanup: settings.daysBeforeCleanup,
        lastPass: await readLastPass(ctx.env),
      };
      ctx.out(flags.json ? formatJson(status) : formatStatus(status));
    });

  archive
    .command("run")
    .description("archive now every transcript within archive.daysBeforeCleanup days of Claude Code's cleanup")
    .option("--json", "print JSON for scripts")
    .option("--quiet", "print nothing unless something failed (what SessionStart and ctx serve run)")
    .action(async (flags: Flags & { quiet?: boolean }) => {
      const { projectRoot, config: cfg } = config();
      const report = await runArchivePass({
        env: ctx.env,
        config: cfg,
        projectRoot,
        now: () => new Date(),
        logger: ctx.logger,
      });
      if (report.failed.length > 0) ctx.setExitCode(1);
      if (flags.json) ctx.out(formatJson(report));
      else if (flags.quiet !== true || report.failed.length > 0) ctx.out(formatRunReport(report));
    });

  archive
    .command("list")
    .description("the archived sessions, newest first")
    .option("--json", "print JSON for scripts")
    .action(async (flags: Flags) => {
      const listing: ArchiveListing = toArchiveListing(
        await listArchived(ctx.env),
        await pinnedArchives(ctx.env),
        config().config.archive.maxAgeDays,
      );
      if (flags.json) return ctx.out(formatJson(listing));
      if (listing.sessions.length === 0) return ctx.out("no archived sessions yet\n");
      const lines = listing.sessions.map((s) => {
        const kept = s.pinned ? "pinned" : s.expiresAt === null ? "kept" : `until ${s.expiresAt.slice(0, 10)}`;
        return `${s.sessionId}  ${s.archivedAt}  ${formatBytes(s.bytes).padStart(9)}  ${kept.padEnd(16)}  ${s.transcriptPath}`;
      });
      ctx.out(`${lines.join("\n")}\n`);
    });

  archive
    .command("restore")
    .description("put an archived session back where Claude Code looks for it, byte for byte")
    .argument("<session>", "the session id")
    .option("--force", "replace a different file already there")
    .option("--json", "print JSON for scripts")
    .action(async (sessionId: string, flags: Flags & { force?: boolean }) => {
      const outcome = await restoreArchived(ctx.env, sessionId, { force: flags.force === true, now: new Date() });
      const report: ArchiveRestoreReport = {
        sessionId,
        restored: outcome.restored,
        unchanged: outcome.unchanged,
        resumeCommand: resumeCommandFor(sessionId, outcome.meta.cwd),
      };
      if (flags.json) return ctx.out(formatJson(report));
      ctx.out(
        `restored ${report.restored.length} file(s)${report.unchanged.length > 0 ? `, ${report.unchanged.length} already there` : ""} of session ${sessionId}\nresume it with: ${report.resumeCommand}\n`,
      );
    });

  archive
    .command("prune")
    .description("prune now: past archive.maxAgeDays, then over archive.maxMegabytes (or --max-mb); pinned kept")
    .option("--max-mb <n>", "the size cap in MiB for this run")
    .option("--json", "print JSON for scripts")
    .action(async (flags: Flags & { maxMb?: string }) => {
      const settings = config().config.archive;
      const cap = flags.maxMb === undefined ? settings.maxMegabytes : Number(flags.maxMb);
      if (!Number.isInteger(cap) || cap < 0) {
        throw new CtxError("USAGE", `--max-mb ${flags.maxMb} is not a whole number of MiB`, {
          hint: "pass e.g. --max-mb 500 (0 keeps everything)",
        });
      }
      const { pruned, expired } = await pruneArchive(ctx.env, {
        maxMegabytes: cap,
        maxAgeDays: settings.maxAgeDays,
        now: new Date(),
      });
      if (flags.json) ctx.out(formatJson({ pruned, expired }));
      else ctx.out(pruned.length === 0 ? "nothing to prune\n" : `pruned ${pruned.length}: ${pruned.join(", ")}\n`);
    });

  for (const [name, pinned] of [
    ["pin", true],
    ["unpin", false],
  ] as const) {
    archive
      .command(name)
      .description(
        pinned
          ? "keep an archived session whatever its age and the size cap"
          : "let the age limit and the size cap prune it again",
      )
      .argument("<session>", "the session id")
      .action(async (sessionId: string) => {
        await setArchivePinned(ctx.env, sessionId, pinned);
        ctx.out(`${pinned ? "pinned" : "unpinned"} ${sessionId}\n`);
      });
  }
}

function formatRunReport(report: ArchiveRunReport): string {
  const counts = [
    `${report.archived.length} archived`,
    report.skipped.length > 0 ? `${report.skipped.length} skipped (too large)` : "",
    report.failed.length > 0 ? `${report.failed.length} failed` : "",
    report.pruned.length > 0 ? `${report.pruned.length} pruned` : "",
  ].filter((part) => part !== "");
  const lines = [
    `cleanupPeriodDays: ${report.cleanupPeriodDays} (${report.cleanupPeriodSource})`,
    `${report.scanned} transcript(s) looked at; ${counts.join("; ")}`,
  ];
  for (const a of report.archived)
    lines.push(`  archived ${a.sessionId} (${a.files} file(s), ${formatBytes(a.bytes)})`);
  for (const s of report.skipped)
    lines.push(`  skipped ${s.sessionId} (${formatBytes(s.bytes)}, over archive.maxTranscriptMegabytes): ${s.path}`);
  for (const f of report.failed) lines.push(`  failed ${f.sessionId}: ${f.problem}`);
  if (report.expired.length > 0) lines.push(`  past archive.maxAgeDays: ${report.expired.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

function formatStatus(status: ArchiveStatus): string {
  const age = status.maxAgeDays > 0 ? `${status.maxAgeDays} days after a session's last write` : "forever";
  const cap = status.maxMegabytes > 0 ? `${status.maxMegabytes} MiB, oldest pruned first` : "none";
  const limit = status.maxTranscriptMegabytes > 0 ? `${status.maxTranscriptMegabytes} MiB` : "none";
  const lines = [
    `archive: ${status.directory} (${status.sessions} session(s), ${formatBytes(status.bytes)}, ${status.pinned} pinned)`,
    "UNREDACTED: archived transcripts are exact copies, secrets included, so a restored session resumes as it was",
    `kept: ${age} (archive.maxAgeDays); size cap: ${cap} (archive.maxMegabytes); pinned sessions are kept whatever`,
    `transcripts over ${limit} are not archived (archive.maxTranscriptMegabytes)`,
    status.enabled
      ? `automatic passes: on, ${status.daysBeforeCleanup} day(s) before Claude Code's cleanup; off: \`ctx config set archive.enabled false\``
      : "automatic passes: off (archive.enabled); `ctx archive run` archives by hand",
  ];
  const last = status.lastPass;
  if (last === null) lines.push("last pass: none yet");
  else {
    lines.push(`last pass: ${last.finishedAt ?? "?"}`);
    lines.push(
      ...formatRunReport(last)
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((line) => `  ${line}`),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** `cd <cwd> && claude --resume <id>`: the session itself, not a fork (the fork command is fork-detect's). */
export function resumeCommandFor(sessionId: string, cwd: string | null): string {
  return forkCommandFor(sessionId, cwd).replace(/ --fork-session$/, "");
}
