// Restoring the saved context: the state a restore starts from (current, a named save, a snapshot, a checkpoint),
// rendered as text, and the report that the CLI's `--json` and ctx_restore / ctx_snapshot_restore share.
import * as z from "zod/mini";
import type { Config } from "../../config/schema.ts";
import { type ContextState, ContextStateSchema } from "../../core/context/extract.ts";
import { RESTORE_MODES, type RenderOptions } from "../../core/context/restore-text.ts";
import { countState, StateCountsSchema } from "../../core/context/schema.ts";
import type { AssemblyPolicy } from "../../core/summaries/assemble.ts";
import { renderRestoreWithConversation } from "../../core/summaries/conversation-part.ts";
import type { SummaryRecord } from "../../core/summaries/sidecar.ts";
import { newestGoodCheckpoint, readCheckpoint } from "../snapshots/checkpoints.ts";
import { readSnapshot } from "../snapshots/snapshots.ts";
import { readSidecar } from "../summaries/sidecar-store.ts";
import type { ContextOpsDeps } from "./operations.ts";
import { readProjectState, statePath } from "./project-state.ts";

export type RestoreSource =
  | { kind: "current" }
  | { kind: "save"; name: string }
  | { kind: "snapshot"; id: string }
  | { kind: "checkpoint"; id: string | null };

export interface LoadedState {
  state: ContextState;
  origin: string;
}

/** The state a restore starts from; null when there is nothing saved (an ordinary absence). */
export async function loadState(deps: ContextOpsDeps, source: RestoreSource): Promise<LoadedState | null> {
  switch (source.kind) {
    case "current": {
      const state = await readProjectState(deps.projectRoot);
      return state && { state, origin: `the current saved state (${statePath(deps.projectRoot)})` };
    }
    case "save": {
      const state = await readProjectState(deps.projectRoot, source.name);
      return state && { state, origin: `the save "${source.name}"` };
    }
    case "snapshot": {
      const snapshot = await readSnapshot(deps.projectRoot, source.id, ContextStateSchema);
      return (
        snapshot && {
          state: snapshot.state,
          origin: `snapshot ${source.id} (${snapshot.snapshot.trigger}, ${snapshot.snapshot.createdAt})`,
        }
      );
    }
    case "checkpoint": {
      if (source.id !== null) {
        const checkpoint = await readCheckpoint(deps.projectRoot, source.id, ContextStateSchema);
        return checkpoint && { state: checkpoint.state, origin: `checkpoint ${source.id}` };
      }
      const newest = await newestGoodCheckpoint(deps.projectRoot, ContextStateSchema);
      return (
        newest.checkpoint && {
          state: newest.checkpoint.state,
          origin: `checkpoint ${newest.checkpoint.meta.id} (the newest that verifies)`,
        }
      );
    }
  }
}

export interface RestoreResult extends LoadedState {
  text: string;
}

/** The `ctx restore` / `ctx snapshot restore` `--json` output and the ctx_restore / ctx_snapshot_restore result. */
export const RestoreReportSchema = z.object({
  /** False when nothing is saved there (the CLI says so with an error instead). */
  found: z.boolean(),
  mode: z.enum(RESTORE_MODES),
  origin: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  savedAt: z.nullable(z.string()),
  /** Length of the rendered text. */
  chars: z.int(),
  /** The cap the text was rendered within; null: none (`--print`). */
  maxChars: z.nullable(z.int()),
  counts: z.nullable(StateCountsSchema),
  /** The rendered text, for scripts; the MCP tools return it as their content instead. */
  text: z.optional(z.string()),
  /** Restoring the newest checkpoint: newer ones that did not verify, newest first. */
  skippedCheckpoints: z.array(z.object({ id: z.string(), problem: z.string() })),
  /** `ctx snapshot restore --as-current`: where the snapshot's state was written; null otherwise. */
  writtenTo: z.nullable(z.string()),
});
export type RestoreReport = z.infer<typeof RestoreReportSchema>;

/** What a restore found, without the text; `found: false` when `restored` is null. */
export function restoreReportOf(
  restored: RestoreResult | null,
  render: Pick<RenderOptions, "mode" | "maxChars">,
): RestoreReport {
  const maxChars = render.maxChars === Number.MAX_SAFE_INTEGER ? null : render.maxChars;
  const rest = { maxChars, skippedCheckpoints: [], writtenTo: null };
  if (restored === null) {
    const none = { origin: null, sessionId: null, savedAt: null, chars: 0, counts: null };
    return { found: false, mode: render.mode, ...none, ...rest };
  }
  const { state } = restored;
  return {
    found: true,
    mode: render.mode,
    origin: restored.origin,
    sessionId: state.sessionId,
    savedAt: state.extractedAt,
    chars: restored.text.length,
    counts: countState(state),
    ...rest,
  };
}

/**
 * Loads and renders a saved context. `summary` and `full` restores carry the conversation assembled from
 * the session's stored summaries (extractive for messages without one), in the room the cap leaves.
 */
export async function restoreContext(
  deps: ContextOpsDeps,
  source: RestoreSource,
  render: Omit<RenderOptions, "origin">,
): Promise<RestoreResult | null> {
  const loaded = await loadState(deps, source);
  if (loaded === null) return null;
  const options = { ...render, origin: loaded.origin };
  const stored = await storedSummaries(deps.projectRoot, loaded.state.sessionId, deps.now());
  const policy = assemblyPolicyOf(deps.config.summaries);
  return { ...loaded, text: renderRestoreWithConversation(loaded.state, options, stored, policy).text };
}

/** The session's stored summaries by message uuid; none when there are none or the sidecar is unreadable. */
export async function storedSummaries(
  projectRoot: string,
  sessionId: string,
  now: Date,
): Promise<Record<string, SummaryRecord>> {
  const read = await readSidecar(projectRoot, sessionId, now).catch(() => null);
  return read?.sidecar?.entries ?? {};
}

export function assemblyPolicyOf(summaries: Config["summaries"]): AssemblyPolicy {
  const { recentMessages, middleMessages, budgetTokens, aggregateTokens } = summaries;
  return { recentMessages, middleMessages, budgetTokens, aggregateTokens };
}
