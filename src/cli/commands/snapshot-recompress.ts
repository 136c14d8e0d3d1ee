// `ctx snapshot recompress <id>`: rewrite an LZ4 snapshot as zstd-19. The pre-compact hook starts this
// detached with no stdio, so it prints one line at most and its exit code carries the outcome: 0 done (or
// already zstd), 1 no such snapshot (pruned meanwhile) or the rewrite did not verify (the LZ4 file stays).
import type { Command } from "commander";
import { formatBytes } from "../../core/snapshots/summary.ts";
import { recompressSnapshot } from "../../store/snapshots/archive-worker.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor, unknownSnapshotError } from "../project-flags.ts";

export function registerSnapshotRecompressCommand(snapshot: Command, ctx: CliContext): void {
  addProjectFlags(
    snapshot
      .command("recompress")
      .description("recompress a snapshot as zstd level 19 (smaller, slow)")
      .argument("<id>"),
  ).action(async (id: string, flags: ProjectFlags) => {
    const result = await recompressSnapshot(projectRootFor(ctx, flags), id);
    if (result === null) throw unknownSnapshotError(id);
    if (flags.json) ctx.out(formatJson(result));
    else if (result.recompressed)
      ctx.out(`recompressed ${id}: ${formatBytes(result.beforeBytes)} -> ${formatBytes(result.afterBytes)}\n`);
    else ctx.out(`${id} is already ${result.snapshot.codec} (${formatBytes(result.afterBytes)})\n`);
  });
}
