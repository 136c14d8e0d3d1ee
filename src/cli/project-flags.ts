// What the context commands (save, restore, diff, clear, checkpoint, snapshot …) share: the project they act
// on (`--project`, else found from the current folder), its config, the deps of the store's context
// operations, and the NOT_FOUND errors that name what a person can run instead.
import type { Command } from "commander";
import { loadConfig } from "../config/load.ts";
import { findProjectRoot, requireProjectDir } from "../config/paths.ts";
import { CtxError } from "../errors.ts";
import type { ContextOpsDeps } from "../store/context/operations.ts";
import type { CliContext } from "./command-io.ts";

export interface ProjectFlags {
  json?: boolean;
  project?: string;
}

/** Adds `--json` and `--project <dir>`, which every context command takes. */
export function addProjectFlags(command: Command): Command {
  return command
    .option("--json", "print JSON for scripts")
    .option("--project <dir>", "project folder (default: found from the current folder)");
}

export function projectRootFor(ctx: CliContext, flags: ProjectFlags): string {
  return flags.project !== undefined ? requireProjectDir(ctx.cwd, flags.project) : findProjectRoot(ctx.cwd, ctx.env);
}

export function contextOpsDepsFor(ctx: CliContext, flags: ProjectFlags): ContextOpsDeps {
  const projectRoot = projectRootFor(ctx, flags);
  return { projectRoot, config: loadConfig({ projectRoot, env: ctx.env }), now: () => new Date() };
}

export function unknownSnapshotError(id: string): CtxError {
  return new CtxError("NOT_FOUND", `no snapshot ${id} in this project`, {
    hint: "`ctx snapshot list` shows the snapshots (and checkpoints) there are",
  });
}

export function unknownCheckpointError(id: string): CtxError {
  return new CtxError("NOT_FOUND", `no checkpoint ${id} in this project`, {
    hint: "`ctx snapshot list` shows the checkpoints (and snapshots) there are; `ctx restore --checkpoint` takes the newest",
  });
}
