// `ctx snapshot prune [--dry-run]`: enforce the retention policy of the config now (count, age, total
// size; pinned snapshots never pruned) and report what went and why, and the storage used. Exit code 1
// when the pinned snapshots alone exceed the size limit: only a person unpinning can fix that.
import type { Command } from "commander";
import { type PruneReason, retentionPolicyFromConfig, selectSnapshotsToPrune } from "../../core/snapshots/retention.ts";
import { formatBytes } from "../../core/snapshots/summary.ts";
import { listSnapshots, pruneSnapshots } from "../../store/snapshots/snapshots.ts";
import { storageUsage } from "../../store/snapshots/storage-usage.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";
import type { PruneReport } from "../reports.ts";
import { describePruneReason } from "../snapshot-text.ts";

export function registerSnapshotPruneCommand(snapshot: Command, ctx: CliContext): void {
  addProjectFlags(
    snapshot
      .command("prune")
      .description("delete snapshots beyond the retention limits in the config (pinned ones are kept)")
      .option("--dry-run", "only say what would be deleted"),
  ).action(async (flags: ProjectFlags & { dryRun?: boolean }) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const policy = retentionPolicyFromConfig(deps.config.retention);
    const now = deps.now();
    const dryRun = flags.dryRun === true;
    const result = dryRun
      ? await decideOnly(deps.projectRoot, policy, now)
      : await pruneSnapshots(deps.projectRoot, policy, now);
    const report: PruneReport = {
      dryRun,
      policy,
      pruned: result.pruned.map((p) => ({ ...p, why: describePruneReason(p.reason, policy) })),
      keptBytes: result.keptBytes,
      pinnedBytes: result.pinnedBytes,
      overLimitPinnedBytes: result.overLimitPinnedBytes,
      damaged: result.damaged,
      removedTempFiles: result.removedTempFiles,
      usage: await storageUsage(deps.projectRoot),
    };
    ctx.out(flags.json ? formatJson(report) : formatPruneReport(report));
    if (report.overLimitPinnedBytes > 0) {
      ctx.err(
        `ctx: the pinned snapshots alone take ${formatBytes(report.pinnedBytes)}, ` +
          `${formatBytes(report.overLimitPinnedBytes)} over the ${formatBytes(policy.maxTotalBytes)} limit\n` +
          "hint: unpin snapshots you no longer need (`ctx snapshot unpin <id>`) or raise retention.maxTotalMegabytes\n",
      );
      ctx.setExitCode(1);
    }
  });
}

/** What pruning would do now, from the listing and the pure decision, deleting nothing. */
async function decideOnly(projectRoot: string, policy: ReturnType<typeof retentionPolicyFromConfig>, now: Date) {
  const entries = await listSnapshots(projectRoot);
  const decision = selectSnapshotsToPrune(entries, policy, now);
  const pruned = entries
    .filter((entry) => decision.reasons[entry.id] !== undefined)
    .map((entry) => ({ id: entry.id, reason: decision.reasons[entry.id] as PruneReason, fileBytes: entry.fileBytes }));
  return { ...decision, pruned, damaged: [], removedTempFiles: [] };
}

function formatPruneReport(report: PruneReport): string {
  const verb = report.dryRun ? "would prune" : "pruned";
  const lines = report.pruned.map((p) => `${verb} ${p.id} (${formatBytes(p.fileBytes)}): ${p.why}\n`);
  if (report.pruned.length === 0) lines.push("nothing to prune: every snapshot is within the retention limits\n");
  for (const d of report.damaged) lines.push(`set aside damaged snapshot ${d.id}: ${d.problem}\n`);
  if (report.removedTempFiles.length > 0)
    lines.push(`removed ${report.removedTempFiles.length} leftover temp file(s) of interrupted writes\n`);
  const { usage, policy } = report;
  lines.push(
    `\n${formatRows([
      [
        "limits",
        `${policy.maxSnapshots} snapshots, ${policy.maxAgeDays} days, ${formatBytes(policy.maxTotalBytes)} (pinned never pruned)`,
      ],
      [
        "snapshots",
        `${usage.snapshots.count} (${formatBytes(usage.snapshots.bytes)}), ${usage.snapshots.pinnedCount} pinned (${formatBytes(usage.snapshots.pinnedBytes)})`,
      ],
      ["checkpoints", `${usage.checkpoints.count} (${formatBytes(usage.checkpoints.bytes)})`],
      ["total on disk", formatBytes(usage.totalBytes)],
    ])}`,
  );
  return lines.join("");
}
