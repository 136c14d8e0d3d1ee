// `ctx archive run|list|restore <session>|prune|pin|unpin`: the copies of transcripts Claude Code's cleanup
// (`cleanupPeriodDays`) is about to delete, kept in ~/.ctx/archive/ (store/archive/). `run` does a pass at
// once; `restore` puts a session's files back byte for byte so `claude --resume` works again.
import type { Command } from "commander";
import * as z from "zod/mini";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { type ArchiveListing, toArchiveListing } from "../../core/archive/plan.ts";
import { forkCommandFor } from "../../core/search/fork-candidates.ts";
import { formatBytes } from "../../core/snapshots/summary.ts";
import { CtxError } from "../../errors.ts";
import { type ArchiveRunReport, pruneArchive, runArchivePass } from "../../store/archive/archive-pass.ts";
import { listArchived, restoreArchived, setArchivePinned } from "../../store/archive/archive-store.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";

export const ArchiveRestoreReportSchema = z.object({
  sessionId: z.string(),
  restored: z.array(z.string()),
  unchanged: z.array(z.string()),
  /** How to resume it now. */
  resumeCommand: z.string(),
});
export type ArchiveRestoreReport = z.infer<typeof ArchiveRestoreReportSchema>;

interface Flags {
  json?: boolean;
}

export function registerArchiveCommand(program: Command, ctx: CliContext): void {
  const archive = program
    .command("archive")
    .description("copies of transcripts Claude Code's cleanup is about to delete: run, list, restore, prune");
  const config = () => {
    const projectRoot = findProjectRoot(ctx.cwd, ctx.env);
    return { projectRoot, config: loadConfig({ projectRoot, env: ctx.env }) };
  };

  archive
    .command("run")
    .description("archive now every transcript within archive.daysBeforeCleanup days of Claude Code's cleanup")
    .option("--json", "print JSON for scripts")
    .option("--quiet", "print nothing unless something failed (what SessionStart and ctx serve run)")
    .action(async (flags: Flags & { quiet?: boolean }) => {
      const { projectRoot, config: cfg } = config();
      const report = await runArchivePass({ env: ctx.env, config: cfg, projectRoot, now: () => new Date() });
      if (report.failed.length > 0) ctx.setExitCode(1);
      if (flags.json) ctx.out(formatJson(report));
      else if (flags.quiet !== true || report.failed.length > 0) ctx.out(formatRunReport(report));
    });

  archive
    .command("list")
    .description("the archived sessions, newest first")
    .option("--json", "print JSON for scripts")
    .action(async (flags: Flags) => {
      const listing: ArchiveListing = toArchiveListing(await listArchived(ctx.env));
      if (flags.json) return ctx.out(formatJson(listing));
      if (listing.sessions.length === 0) return ctx.out("no archived sessions yet\n");
      const lines = listing.sessions.map(
        (s) => `${s.sessionId}  ${s.archivedAt}  ${formatBytes(s.bytes).padStart(9)}  ${s.transcriptPath}`,
      );
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
    .description("apply the size cap now (archive.maxMegabytes, or --max-mb): oldest first, pinned kept")
    .option("--max-mb <n>", "the cap in MiB for this run")
    .option("--json", "print JSON for scripts")
    .action(async (flags: Flags & { maxMb?: string }) => {
      const cap = flags.maxMb === undefined ? config().config.archive.maxMegabytes : Number(flags.maxMb);
      if (!Number.isInteger(cap) || cap < 0) {
        throw new CtxError("USAGE", `--max-mb ${flags.maxMb} is not a whole number of MiB`, {
          hint: "pass e.g. --max-mb 500 (0 keeps everything)",
        });
      }
      const pruned = await pruneArchive(ctx.env, cap);
      if (flags.json) ctx.out(formatJson({ pruned }));
      else ctx.out(pruned.length === 0 ? "nothing to prune\n" : `pruned ${pruned.length}: ${pruned.join(", ")}\n`);
    });

  for (const [name, pinned] of [
    ["pin", true],
    ["unpin", false],
  ] as const) {
    archive
      .command(name)
      .description(pinned ? "keep an archived session whatever the size cap" : "let the size cap prune it again")
      .argument("<session>", "the session id")
      .action(async (sessionId: string) => {
        await setArchivePinned(ctx.env, sessionId, pinned);
        ctx.out(`${pinned ? "pinned" : "unpinned"} ${sessionId}\n`);
      });
  }
}

function formatRunReport(report: ArchiveRunReport): string {
  const lines = [
    `cleanupPeriodDays: ${report.cleanupPeriodDays} (${report.cleanupPeriodSource})`,
    `${report.scanned} transcript(s) looked at; ${report.archived.length} archived${report.pruned.length > 0 ? `; ${report.pruned.length} pruned` : ""}`,
  ];
  for (const a of report.archived)
    lines.push(`  archived ${a.sessionId} (${a.files} file(s), ${formatBytes(a.bytes)})`);
  for (const f of report.failed) lines.push(`  failed ${f.sessionId}: ${f.problem}`);
  return `${lines.join("\n")}\n`;
}

/** `cd <cwd> && claude --resume <id>`: the session itself, not a fork (the fork command is fork-detect's). */
export function resumeCommandFor(sessionId: string, cwd: string | null): string {
  return forkCommandFor(sessionId, cwd).replace(/ --fork-session$/, "");
}
