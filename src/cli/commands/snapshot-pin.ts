// `ctx snapshot pin <id>` / `unpin <id>`: a pinned snapshot is never pruned (its bytes still count
// towards the storage limit).
import type { Command } from "commander";
import { pinSnapshot, unpinSnapshot } from "../../store/snapshots/snapshots.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor, unknownSnapshotError } from "../project-flags.ts";

export function registerSnapshotPinCommands(snapshot: Command, ctx: CliContext): void {
  for (const pin of [true, false]) {
    const verb = pin ? "pin" : "unpin";
    addProjectFlags(
      snapshot
        .command(verb)
        .description(pin ? "keep a snapshot whatever the retention limits" : "let retention prune a snapshot again")
        .argument("<id>"),
    ).action(async (id: string, flags: ProjectFlags) => {
      const root = projectRootFor(ctx, flags);
      const entry = await (pin ? pinSnapshot : unpinSnapshot)(root, id);
      if (entry === null) throw unknownSnapshotError(id);
      ctx.out(flags.json ? formatJson({ snapshot: entry }) : `${pin ? "pinned" : "unpinned"} snapshot ${id}\n`);
    });
  }
}
