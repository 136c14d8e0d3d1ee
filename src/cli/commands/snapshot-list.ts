// `ctx snapshot list [--verbose]`: the project's snapshots and checkpoints, newest first. Reads the
// snapshot catalog (rebuilt from the files when stale) and the checkpoint folder listing; decodes nothing.
import type { Command } from "commander";
import { listCheckpoints } from "../../store/snapshots/checkpoints.ts";
import { listSnapshots } from "../../store/snapshots/snapshots.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor } from "../project-flags.ts";
import type { SnapshotListReport } from "../reports.ts";
import { formatCheckpointTable, formatSnapshotTable } from "../snapshot-text.ts";

export function registerSnapshotListCommand(snapshot: Command, ctx: CliContext): void {
  addProjectFlags(
    snapshot
      .command("list")
      .description("list the snapshots and checkpoints, newest first")
      .option("--verbose", "also the session, codec, transcript size and what each state holds"),
  ).action(async (flags: ProjectFlags & { verbose?: boolean }) => {
    const root = projectRootFor(ctx, flags);
    const [snapshots, checkpoints] = await Promise.all([listSnapshots(root), listCheckpoints(root)]);
    const report: SnapshotListReport = { snapshots, checkpoints };
    if (flags.json) ctx.out(formatJson(report));
    else ctx.out(`${formatSnapshotTable(snapshots, flags.verbose === true)}\n${formatCheckpointTable(checkpoints)}`);
  });
}
