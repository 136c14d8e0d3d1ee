// `ctx snapshot show <id>`: one snapshot's meta and its state rendered as a summary.
import type { Command } from "commander";
import { ContextStateSchema } from "../../core/context/extract.ts";
import { renderRestoreText } from "../../core/context/restore-text.ts";
import { readSnapshot } from "../../store/snapshots/snapshots.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags, unknownSnapshotError } from "../project-flags.ts";
import type { SnapshotShowReport } from "../reports.ts";
import { snapshotMetaRows } from "../snapshot-text.ts";

export function registerSnapshotShowCommand(snapshot: Command, ctx: CliContext): void {
  addProjectFlags(
    snapshot.command("show").description("show a snapshot's details and a summary of its context").argument("<id>"),
  ).action(async (id: string, flags: ProjectFlags) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const contents = await readSnapshot(deps.projectRoot, id, ContextStateSchema);
    if (contents === null) throw unknownSnapshotError(id);
    const entry = contents.snapshot;
    const text = renderRestoreText(contents.state, {
      mode: "summary",
      maxChars: deps.config.hooks.maxInjectChars,
      origin: `snapshot ${id} (${entry.trigger}, ${entry.createdAt})`,
    });
    const report: SnapshotShowReport = { snapshot: entry, text };
    ctx.out(flags.json ? formatJson(report) : `${formatRows(snapshotMetaRows(entry))}\n${text}\n`);
  });
}
