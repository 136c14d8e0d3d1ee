// `.ctx/state.ctx`: the project's current context state (the newest capture, of whichever session), LZ4
// because hooks write it. Named saves live in `.ctx/saves/<name>.ctx`; each session's own newest state in
// `.ctx/session-states/<session id>.ctx`, so two sessions in one project never lose each other's context
// (a compaction re-injects and merges its own session's state, not the project's newest).
import { createHash } from "node:crypto";
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { type ContextState, ContextStateSchema } from "../../core/context/extract.ts";
import { CtxError, describeError, isCtxError } from "../../errors.ts";
import { HOT_CODEC } from "../files/codecs.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { encodeValidated, replaceStateFile } from "../files/quarantine.ts";
import { readStateFile } from "../files/state-file.ts";

const SAVE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function statePath(projectRoot: string, name?: string | null): string {
  const paths = projectPaths(projectRoot);
  if (name === undefined || name === null) return paths.state;
  if (!SAVE_NAME.test(name)) {
    throw new CtxError("USAGE", `invalid save name "${name}"`, {
      hint: "use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    });
  }
  return join(paths.ctxDir, "saves", `${name}.ctx`);
}

/** Per-session states kept (the most recently written). */
const SESSION_STATES_KEPT = 20;
const SAFE_SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function sessionStatePath(projectRoot: string, sessionId: string): string {
  const name =
    SAFE_SESSION_ID.test(sessionId) && !sessionId.startsWith(".")
      ? sessionId
      : createHash("sha256").update(sessionId).digest("hex");
  return join(projectPaths(projectRoot).ctxDir, "session-states", `${name}.ctx`);
}

/** The newest state saved for `sessionId`; null when none (or it fails to verify: it is re-captured whole). */
export async function readSessionState(projectRoot: string, sessionId: string): Promise<ContextState | null> {
  const own = await readStateFile(sessionStatePath(projectRoot, sessionId), ContextStateSchema).catch(() => null);
  if (own !== null) return own;
  const current = await readStateFile(statePath(projectRoot), ContextStateSchema).catch(() => null);
  return current?.sessionId === sessionId ? current : null;
}

export async function readProjectState(projectRoot: string, name?: string | null): Promise<ContextState | null> {
  return readStateFile(statePath(projectRoot, name), ContextStateSchema);
}

export interface WrittenState {
  state: ContextState;
  /** Where a damaged earlier file was moved before writing; null when there was none. */
  movedAside: string | null;
}

/**
 * Writes the state under the file's lock: as the project's current state and as its session's own, or,
 * with `name`, as a named save.
 */
export async function writeProjectState(
  projectRoot: string,
  state: ContextState,
  options: { name?: string | null; now?: Date; trusted?: boolean } = {},
): Promise<WrittenState> {
  await ensureProjectCtxDir(projectRoot);
  const now = options.now ?? new Date();
  // A new capture supersedes the old file whole: encoded once, written to each place without reading what was
  // there (its header is checked; a damaged one is moved aside). The state is ctx's own (a capture, or a state
  // read and validated from a snapshot), so it is not validated again here; every read validates it.
  const target = options.name !== undefined && options.name !== null ? statePath(projectRoot, options.name) : null;
  const encoded = encodeValidated(target ?? statePath(projectRoot), ContextStateSchema, state, HOT_CODEC, {
    trusted: options.trusted !== false,
  });
  if (target !== null) {
    const { movedAside } = await replaceStateFile(target, encoded.bytes, { now });
    return { state: encoded.value, movedAside };
  }
  await replaceStateFile(sessionStatePath(projectRoot, state.sessionId), encoded.bytes, { now });
  const { movedAside } = await replaceStateFile(statePath(projectRoot), encoded.bytes, { now });
  await pruneSessionStates(projectRoot);
  return { state: encoded.value, movedAside };
}

async function pruneSessionStates(projectRoot: string): Promise<void> {
  const dir = join(projectPaths(projectRoot).ctxDir, "session-states");
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".ctx"));
  if (names.length <= SESSION_STATES_KEPT) return;
  const dated = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of dated.slice(SESSION_STATES_KEPT)) await unlink(join(dir, name)).catch(() => undefined);
}

export interface RecoveredState {
  state: ContextState;
  /** Where it came from: the project's state, else a session's own state, else a checkpoint. */
  source: { kind: "state" } | { kind: "session-state"; sessionId: string } | { kind: "checkpoint"; id: string };
  /** Why `state.ctx` was not used, when it was damaged; null when it was fine (or absent). */
  damaged: string | null;
}

/**
 * The project's newest saved context, for a new session: `state.ctx`, or, when that fails to verify, the
 * newest per-session state that verifies (other than `excludeSessionId`), else the newest good checkpoint.
 * null when there is nothing to restore. A damaged `state.ctx` never means starting with nothing.
 */
export async function readNewestGoodState(
  projectRoot: string,
  excludeSessionId?: string,
): Promise<RecoveredState | null> {
  let damaged: string | null = null;
  try {
    const state = await readProjectState(projectRoot);
    if (state !== null) return { state, source: { kind: "state" }, damaged: null };
  } catch (error) {
    if (!isCtxError(error)) throw error;
    damaged = describeError(error);
  }
  if (damaged === null) return null; // no state yet: nothing was lost either
  const dir = join(projectPaths(projectRoot).ctxDir, "session-states");
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".ctx"));
  const dated = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of dated) {
    const state = await readStateFile(join(dir, name), ContextStateSchema).catch(() => null);
    if (state === null || state.sessionId === excludeSessionId) continue;
    return { state, source: { kind: "session-state", sessionId: state.sessionId }, damaged };
  }
  const { newestGoodCheckpoint } = await import("../snapshots/checkpoints.ts");
  const { checkpoint } = await newestGoodCheckpoint(projectRoot, ContextStateSchema).catch(() => ({
    checkpoint: null,
  }));
  if (checkpoint !== null)
    return { state: checkpoint.state, source: { kind: "checkpoint", id: checkpoint.meta.id }, damaged };
  return null;
}
