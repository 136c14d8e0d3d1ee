// Loading and rendering the state `ctx restore` and `ctx snapshot restore` print, with the errors a person
// gets when there is nothing there: each names what was asked for and what to run instead.
import { ContextStateSchema } from "../core/context/extract.ts";
import { type RenderOptions, renderRestoreText } from "../core/context/restore-text.ts";
import { shellCommand } from "../core/shell/quote.ts";
import { CtxError } from "../errors.ts";
import type { ContextOpsDeps } from "../store/context/operations.ts";
import {
  type RestoreReport,
  type RestoreResult,
  type RestoreSource,
  restoreContext,
  restoreReportOf,
} from "../store/context/restore.ts";
import { newestGoodCheckpoint } from "../store/snapshots/checkpoints.ts";
import { unknownCheckpointError, unknownSnapshotError } from "./project-flags.ts";

export interface RenderedRestore extends RestoreResult {
  skippedCheckpoints: { id: string; problem: string }[];
}

/** The rendered state from `source`; NOT_FOUND (exit 1) when there is none. */
export async function renderRestore(
  deps: ContextOpsDeps,
  source: RestoreSource,
  render: Omit<RenderOptions, "origin">,
): Promise<RenderedRestore> {
  if (source.kind === "checkpoint" && source.id === null) {
    // Asked for here rather than through restoreContext, to report the damaged checkpoints it skipped.
    const newest = await newestGoodCheckpoint(deps.projectRoot, ContextStateSchema);
    if (newest.checkpoint === null) throw noGoodCheckpoint(newest.skipped);
    const origin = `checkpoint ${newest.checkpoint.meta.id} (the newest that verifies)`;
    const state = newest.checkpoint.state;
    return { state, origin, text: renderRestoreText(state, { ...render, origin }), skippedCheckpoints: newest.skipped };
  }
  const result = await restoreContext(deps, source, render);
  if (result === null) throw nothingThere(source);
  return { ...result, skippedCheckpoints: [] };
}

/** The `--json` report: what was restored, with the text and the checkpoints skipped or the file written. */
export function restoreReportWithText(
  restored: RenderedRestore,
  render: Omit<RenderOptions, "origin">,
  writtenTo: string | null = null,
): RestoreReport {
  return {
    ...restoreReportOf(restored, render),
    text: restored.text,
    skippedCheckpoints: restored.skippedCheckpoints,
    writtenTo,
  };
}

/** One stderr line per damaged checkpoint passed over, so the person knows why an older one was used. */
export function formatSkippedCheckpoints(skipped: RenderedRestore["skippedCheckpoints"]): string {
  return skipped.map((s) => `ctx: skipped damaged checkpoint ${s.id}: ${s.problem}\n`).join("");
}

function nothingThere(source: RestoreSource): CtxError {
  switch (source.kind) {
    case "current":
      return new CtxError("NOT_FOUND", "nothing saved for this project yet", {
        hint: "`ctx save` saves the current session's context now (the hooks also save at session end and before compaction)",
      });
    case "save":
      return new CtxError("NOT_FOUND", `no save named "${source.name}" in this project`, {
        hint: `\`${shellCommand(["ctx", "save", "--name", source.name])}\` creates it; \`ctx restore\` without --name restores the current state`,
      });
    case "snapshot":
      return unknownSnapshotError(source.id);
    case "checkpoint":
      return source.id === null ? noGoodCheckpoint([]) : unknownCheckpointError(source.id);
  }
}

function noGoodCheckpoint(skipped: { id: string; problem: string }[]): CtxError {
  const damaged = skipped.length === 0 ? "" : ` (${skipped.length} damaged: ${skipped.map((s) => s.id).join(", ")})`;
  return new CtxError("NOT_FOUND", `no checkpoint that verifies in this project${damaged}`, {
    hint: "the hooks write a checkpoint every few messages; `ctx checkpoint` writes one now, `ctx snapshot list` shows the snapshots",
  });
}
