// `ctx snapshot …`: the compaction snapshots (and, in the listing, the rolling checkpoints). One file per
// subcommand beside this one.
import type { Command } from "commander";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { registerSnapshotListCommand } from "./snapshot-list.ts";
import { registerSnapshotPinCommands } from "./snapshot-pin.ts";
import { registerSnapshotPruneCommand } from "./snapshot-prune.ts";
import { registerSnapshotRecompressCommand } from "./snapshot-recompress.ts";
import { registerSnapshotRestoreCommand } from "./snapshot-restore.ts";
import { registerSnapshotShowCommand } from "./snapshot-show.ts";

export function registerSnapshotCommand(program: Command, ctx: CliContext): void {
  const snapshot = program.command("snapshot").description(COMMANDS.snapshot.description);
  registerSnapshotListCommand(snapshot, ctx);
  registerSnapshotShowCommand(snapshot, ctx);
  registerSnapshotRestoreCommand(snapshot, ctx);
  registerSnapshotPinCommands(snapshot, ctx);
  registerSnapshotPruneCommand(snapshot, ctx);
  registerSnapshotRecompressCommand(snapshot, ctx);
}
