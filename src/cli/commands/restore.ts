// `ctx restore`: print the saved context as text, from the current state, a named save, a snapshot or a
// checkpoint (`--checkpoint` alone: the newest that verifies, the crash-recovery path `ctx status` names).
import { type Command, Option } from "commander";
import type { RestoreSource } from "../../store/context/restore.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, contextOpsDepsFor, type ProjectFlags } from "../project-flags.ts";
import { addRenderFlags, type RenderFlags, renderOptionsFrom } from "../render-flags.ts";
import { formatSkippedCheckpoints, renderRestore, restoreReportWithText } from "../restore-source.ts";

interface RestoreFlags extends ProjectFlags, RenderFlags {
  name?: string;
  snapshot?: string;
  checkpoint?: string | true;
}

export function registerRestoreCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command("restore")
    .description(COMMANDS.restore.description)
    .addOption(new Option("--name <name>", "a named save (`ctx save --name`)").conflicts(["snapshot", "checkpoint"]))
    .addOption(new Option("--snapshot <id>", "a compaction snapshot (`ctx snapshot list`)").conflicts("checkpoint"))
    .addOption(new Option("--checkpoint [id]", "a checkpoint; without an id, the newest one that verifies"));
  addProjectFlags(addRenderFlags(command)).action(async (flags: RestoreFlags) => {
    const deps = contextOpsDepsFor(ctx, flags);
    const render = renderOptionsFrom(flags, deps.config);
    const restored = await renderRestore(deps, sourceOf(flags), render);
    if (flags.json) {
      ctx.out(formatJson(restoreReportWithText(restored, render)));
      return;
    }
    ctx.err(formatSkippedCheckpoints(restored.skippedCheckpoints));
    ctx.out(`${restored.text}\n`);
  });
}

function sourceOf(flags: RestoreFlags): RestoreSource {
  if (flags.name !== undefined) return { kind: "save", name: flags.name };
  if (flags.snapshot !== undefined) return { kind: "snapshot", id: flags.snapshot };
  if (flags.checkpoint !== undefined)
    return { kind: "checkpoint", id: flags.checkpoint === true ? null : flags.checkpoint };
  return { kind: "current" };
}
