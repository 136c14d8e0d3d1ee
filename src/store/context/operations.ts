// The operations behind ctx's save / checkpoint / snapshot / clear (restore is in ./restore.ts), shared by the CLI,
// the MCP tools and the hooks so the three always do the same thing: capture the session's context from its
// transcript and keep it (state, named saves, checkpoints, snapshots). The reports of save, checkpoint and clear
// are the CLI's `--json` output and the MCP tools' results alike.
import { unlink } from "node:fs/promises";
import * as z from "zod/mini";
import type { Config } from "../../config/schema.ts";
import { type ContextState, ContextStateSchema } from "../../core/context/extract.ts";
import { countState, StateCountsSchema } from "../../core/context/schema.ts";
import { redactText } from "../../core/redact/redact.ts";
import type { SessionRecord } from "../../core/sessions/seen.ts";
import { hasControlCharacter } from "../../core/text/control-characters.ts";
import { CtxError } from "../../errors.ts";
import { CTX_VERSION } from "../../version.ts";
import { HOT_CODEC } from "../files/codecs.ts";
import { readSessionsSeen } from "../sessions/seen.ts";
import type { RedactionThread } from "../snapshots/redact-thread.ts";
import type { CreateSnapshotResult, PreparedTranscript, SnapshotTrigger } from "../snapshots/snapshots.ts";
import { type CaptureResult, captureContextState } from "./capture.ts";
import { readSessionState, statePath, writeProjectState } from "./project-state.ts";

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
  // A path with a control character (recorded before hook inputs were checked for them) names no file.
  const match = (s: SessionRecord) =>
    s.transcriptPath !== null &&
    !hasControlCharacter(s.transcriptPath) &&
    (wanted.sessionId === undefined || s.sessionId === wanted.sessionId);
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
  // Loaded here: saving (SessionEnd) needs none of the checkpoint and snapshot code.
  const { writeCheckpoint } = await import("../snapshots/checkpoints.ts");
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
  /** The transcript prepared already (startSnapshotTranscript); read and redacted here otherwise. */
  prepared?: SnapshotTranscriptJob;
}

/** The transcript's part of the one snapshot policy: redacted with the config's allowlist, the config's size cap. */
function transcriptPreparation(deps: ContextOpsDeps, session: SessionRef) {
  const allowlist = deps.config.redaction.allowlist;
  return {
    sessionId: session.sessionId,
    transcriptPath: session.transcriptPath,
    transformTranscript: (text: string) => redactText(text, { allowlist }).text,
    // This build's redactor and allowlist: a snapshot of a grown transcript redacts only what was added.
    transformKey: `redact:${CTX_VERSION}:${JSON.stringify(allowlist)}`,
    maxTranscriptBytes: deps.config.retention.maxTranscriptMegabytes * 1024 * 1024,
  };
}

export interface SnapshotTranscriptJob {
  transcript: Promise<PreparedTranscript>;
  /** The caller is free to help: what is not yet handed to the worker is redacted now, in this thread. */
  finishHere(): void;
  /** Stops the redaction thread if it is still running (the snapshot will not be taken). */
  cancel(): void;
}

/**
 * Starts reading and redacting the session's transcript for a snapshot (PreCompact: started first, so the
 * redaction runs in a worker thread while the state is captured and written). Its result is what snapshotContext
 * would read itself; a failure (the transcript is gone) surfaces when the snapshot is taken.
 */
export function startSnapshotTranscript(
  deps: ContextOpsDeps,
  session: SessionRef,
  options: { thread?: boolean; minThreadedBytes?: number } = {},
): SnapshotTranscriptJob {
  let thread: RedactionThread | null = null;
  let cancelled = false;
  let helping = false;
  const transcript = (async () => {
    // Loaded on its own: the worker runs that module's chunk, which then holds the redactor and little else.
    const { startRedactionThread } = await import("../snapshots/redact-thread.ts");
    const { prepareSnapshotTranscript } = await import("../snapshots/snapshots.ts");
    const started = startRedactionThread(deps.config.redaction.allowlist, {
      thread: !cancelled && options.thread !== false,
      ...(options.minThreadedBytes === undefined ? {} : { minThreadedBytes: options.minThreadedBytes }),
    });
    thread = started;
    if (helping) started.help();
    try {
      return await prepareSnapshotTranscript(deps.projectRoot, {
        ...transcriptPreparation(deps, session),
        transformRaw: (raw) => started.redact(raw),
      });
    } finally {
      // Not needed (too large, or nothing new to redact) or failed: the worker stops now rather than at exit.
      started.close();
    }
  })();
  // Awaited by snapshotContext; never an unhandled rejection when the hook gives up before that.
  transcript.catch(() => undefined);
  return {
    transcript,
    finishHere: () => {
      helping = true;
      thread?.help();
    },
    cancel: () => {
      cancelled = true;
      thread?.close();
    },
  };
}

/**
 * A snapshot of the session's context with the one snapshot policy (used by PreCompact and the guard): LZ4 on
 * the hook path (zstd-19 archival comes later, off the hook), the config's retention, and the transcript
 * redacted with the config's allowlist before it is kept.
 */
export async function snapshotContext(
  deps: ContextOpsDeps,
  input: SnapshotContextInput,
): Promise<CreateSnapshotResult> {
  input.prepared?.finishHere();
  const [{ createSnapshot }, { retentionPolicyFromConfig }] = await Promise.all([
    import("../snapshots/snapshots.ts"),
    import("../../core/snapshots/retention.ts"),
  ]);
  return createSnapshot(
    deps.projectRoot,
    {
      ...transcriptPreparation(deps, input),
      trigger: input.trigger,
      state: input.state,
      stateSchema: ContextStateSchema,
      ...(input.prepared === undefined ? {} : { preparedTranscript: input.prepared.transcript }),
    },
    { codec: HOT_CODEC, retention: retentionPolicyFromConfig(deps.config.retention), now: deps.now() },
  );
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
