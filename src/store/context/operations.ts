// The operations behind ctx's save / restore / checkpoint / snapshot / clear, shared by the CLI, the MCP tools and
// the hooks so the three always do the same thing: capture the session's context from its transcript,
// keep it (state, named saves, checkpoints, snapshots), and render it back as text. The reports of save,
// checkpoint and clear are the CLI's `--json` output and the MCP tools' results alike.
import { unlink } from "node:fs/promises";
import * as z from "zod/mini";
import type { Config } from "../../config/schema.ts";
import { type ContextState, ContextStateSchema } from "../../core/context/extract.ts";
import { RESTORE_MODES, type RenderOptions, renderRestoreText } from "../../core/context/restore-text.ts";
import { countState, StateCountsSchema } from "../../core/context/schema.ts";
import { redactText } from "../../core/redact/redact.ts";
import type { SessionRecord } from "../../core/sessions/seen.ts";
import { retentionPolicyFromConfig } from "../../core/snapshots/retention.ts";
import { CtxError } from "../../errors.ts";
import { readSessionsSeen } from "../sessions/seen.ts";
import { newestGoodCheckpoint, readCheckpoint, writeCheckpoint } from "../snapshots/checkpoints.ts";
import {
  type CreateSnapshotResult,
  createSnapshot,
  readSnapshot,
  type SnapshotTrigger,
} from "../snapshots/snapshots.ts";
import { type CaptureResult, captureContextState } from "./capture.ts";
import { readProjectState, readSessionState, statePath, writeProjectState } from "./project-state.ts";

export interface ContextOpsDeps {
  projectRoot: string;
  config: Config;
  now: () => Date;
}

export interface SessionRef {
  sessionId: string;
  transcriptPath: string;
}

/** The session to capture: the one named, else the newest session seen in this project that has a transcript. */
export async function resolveSession(deps: ContextOpsDeps, wanted: Partial<SessionRef> = {}): Promise<SessionRef> {
  if (wanted.sessionId !== undefined && wanted.transcriptPath !== undefined) {
    return { sessionId: wanted.sessionId, transcriptPath: wanted.transcriptPath };
  }
  const seen = await readSessionsSeen(deps.projectRoot).catch(() => null);
  const match = (s: SessionRecord) =>
    s.transcriptPath !== null && (wanted.sessionId === undefined || s.sessionId === wanted.sessionId);
  const record = seen?.sessions.find(match);
  if (record === undefined || record.transcriptPath === null) {
    throw new CtxError(
      "NOT_FOUND",
      `no Claude Code session${wanted.sessionId ? ` ${wanted.sessionId}` : ""} recorded in this project`,
      {
        hint: "ctx learns sessions from its SessionStart hook: run `ctx init`, then start Claude Code here",
      },
    );
  }
  return { sessionId: record.sessionId, transcriptPath: record.transcriptPath };
}

export interface SaveResult {
  state: ContextState;
  path: string;
  redactions: number;
  movedAside: string | null;
}

/** The session's context captured now, merged onto its own last save. */
function captureSession(deps: ContextOpsDeps, session: SessionRef): Promise<CaptureResult> {
  return readSessionState(deps.projectRoot, session.sessionId).then((previous) =>
    captureContextState({
      projectRoot: deps.projectRoot,
      ...session,
      now: deps.now(),
      previous,
      allowlist: deps.config.redaction.allowlist,
    }),
  );
}

/** Captures the session now and writes it as the project's current state (and as `name`, when given). */
export async function saveContext(
  deps: ContextOpsDeps,
  options: Partial<SessionRef> & { name?: string } = {},
): Promise<SaveResult> {
  // Checked first: an invalid name must not leave the current state overwritten.
  const path = statePath(deps.projectRoot, options.name ?? null);
  const session = await resolveSession(deps, options);
  const captured = await captureSession(deps, session);
  const written = await writeProjectState(deps.projectRoot, captured.state, { now: deps.now() });
  if (options.name !== undefined)
    await writeProjectState(deps.projectRoot, captured.state, { name: options.name, now: deps.now() });
  return {
    state: written.state,
    path,
    redactions: captured.redactions,
    movedAside: written.movedAside,
  };
}

export const SaveReportSchema = z.object({
  sessionId: z.string(),
  /** The named save also written, or null. */
  name: z.nullable(z.string()),
  path: z.string(),
  extractedAt: z.string(),
  counts: StateCountsSchema,
  /** Secrets replaced by markers before anything was written. */
  redactions: z.int(),
  /** Where a damaged earlier state file was moved before writing; null normally. */
  movedAside: z.nullable(z.string()),
});
export type SaveReport = z.infer<typeof SaveReportSchema>;

export function saveReportOf(saved: SaveResult, name: string | null): SaveReport {
  return {
    sessionId: saved.state.sessionId,
    name,
    path: saved.path,
    extractedAt: saved.state.extractedAt,
    counts: countState(saved.state),
    redactions: saved.redactions,
    movedAside: saved.movedAside,
  };
}

export interface CheckpointResult {
  id: string;
  path: string;
  state: ContextState;
}

export const CheckpointReportSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  path: z.string(),
  counts: StateCountsSchema,
});
export type CheckpointReport = z.infer<typeof CheckpointReportSchema>;

export function checkpointReportOf(checkpoint: CheckpointResult): CheckpointReport {
  return {
    id: checkpoint.id,
    sessionId: checkpoint.state.sessionId,
    path: checkpoint.path,
    counts: countState(checkpoint.state),
  };
}

export async function checkpointContext(
  deps: ContextOpsDeps,
  options: Partial<SessionRef> & { messageCount?: number } = {},
): Promise<CheckpointResult> {
  const session = await resolveSession(deps, options);
  const captured = await captureSession(deps, session);
  const result = await writeCheckpoint(
    deps.projectRoot,
    {
      sessionId: session.sessionId,
      state: captured.state,
      stateSchema: ContextStateSchema,
      messageCount: options.messageCount ?? captured.state.conversation.length,
    },
    { keep: deps.config.checkpoints.keep, now: deps.now() },
  );
  return { id: result.meta.id, path: result.path, state: captured.state };
}

export interface SnapshotContextInput extends SessionRef {
  trigger: SnapshotTrigger;
  /** The state just captured (a snapshot keeps it beside the transcript as it stood). */
  state: ContextState;
}

/**
 * A snapshot of the session's context with the one snapshot policy (used by PreCompact and the guard): LZ4 on
 * the hook path (zstd-19 archival comes later, off the hook), the config's retention, and the transcript
 * redacted with the config's allowlist before it is kept.
 */
export function snapshotContext(deps: ContextOpsDeps, input: SnapshotContextInput): Promise<CreateSnapshotResult> {
  const allowlist = deps.config.redaction.allowlist;
  return createSnapshot(
    deps.projectRoot,
    {
      sessionId: input.sessionId,
      trigger: input.trigger,
      state: input.state,
      stateSchema: ContextStateSchema,
      transcriptPath: input.transcriptPath,
      transformTranscript: (text) => redactText(text, { allowlist }).text,
    },
    { codec: "lz4", retention: retentionPolicyFromConfig(deps.config.retention), now: deps.now() },
  );
}

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

export async function restoreContext(
  deps: ContextOpsDeps,
  source: RestoreSource,
  render: Omit<RenderOptions, "origin">,
): Promise<RestoreResult | null> {
  const loaded = await loadState(deps, source);
  if (loaded === null) return null;
  return { ...loaded, text: renderRestoreText(loaded.state, { ...render, origin: loaded.origin }) };
}

export const ClearReportSchema = z.object({ cleared: z.boolean(), path: z.string() });
export type ClearReport = z.infer<typeof ClearReportSchema>;

/** Deletes the current state (not the saves, checkpoints or snapshots); refuses unless forced. */
export async function clearContext(deps: ContextOpsDeps, options: { force: boolean }): Promise<ClearReport> {
  if (!options.force) {
    throw new CtxError("USAGE", "clearing deletes the project's current saved context; nothing was done", {
      hint: "pass force (ctx clear --force); snapshots, checkpoints and named saves are kept",
    });
  }
  const path = statePath(deps.projectRoot);
  try {
    await unlink(path);
    return { cleared: true, path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { cleared: false, path };
    throw error;
  }
}
