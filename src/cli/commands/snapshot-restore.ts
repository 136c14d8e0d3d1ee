// `ctx snapshot restore <id> [--as-current]`: print a snapshot's context as `ctx restore` would; with
// --as-current, its state also becomes the project's current state (what the hooks re-inject next).
import type { Command } from "commander";
import { statePath, writeProjectState } from "../../store/context/project-state.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";
import { addRenderFlags, type RenderFlags, renderOptionsFrom } from "../render-flags.ts";
import { renderRestore, restoreReportWithText } from "../restore-source.ts";

interface SnapshotRestoreFlags extends ProjectFlags, RenderFlags {
  asCurrent?: boolean;
}

export function registerSnapshotRestoreCommand(snapshot: Command, ctx: CliContext): void {
  const command = snapshot
    .command("restore")
    .description("print a snapshot's context; --as-current also makes it the current state")
    .argument("<id>")
    .option("--as-current", "write the snapshot's state as the project's current state");
  addProjectFlags(addRenderFlags(command)).action(async (id: string, flags: SnapshotRestoreFlags) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const render = renderOptionsFrom(flags, deps.config);
    const restored = await renderRestore(deps, { kind: "snapshot", id }, render);
    let writtenTo: string | null = null;
    if (flags.asCurrent) {
      const written = await writeProjectState(deps.projectRoot, restored.state, { now: deps.now() });
      writtenTo = statePath(deps.projectRoot);
      if (written.movedAside !== null)
        ctx.err(`ctx: the previous state file did not verify; kept as ${written.movedAside}\n`);
      if (!flags.json) ctx.err(`ctx: snapshot ${id}'s state is now the current state (${writtenTo})\n`);
    }
    ctx.out(flags.json ? formatJson(restoreReportWithText(restored, render, writtenTo)) : `${restored.text}\n`);
  });
}
