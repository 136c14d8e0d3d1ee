// `.ctx/state.ctx`: the project's current context state (the newest capture), LZ4 because hooks write it.
// Named saves live beside it as `.ctx/saves/<name>.ctx`.
import { join } from "node:path";
import { type ContextState, ContextStateSchema } from "../core/context-state.ts";
import { CtxError } from "../errors.ts";
import { projectPaths } from "./paths.ts";
import { ensureProjectCtxDir } from "./project-dir.ts";
import { updateStateFileOrQuarantine } from "./quarantine.ts";
import { readStateFile } from "./state-file.ts";

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

export async function readProjectState(projectRoot: string, name?: string | null): Promise<ContextState | null> {
  return readStateFile(statePath(projectRoot, name), ContextStateSchema);
}

export interface WrittenState {
  state: ContextState;
  /** Where a damaged earlier file was moved before writing; null when there was none. */
  movedAside: string | null;
}

/** Writes the state under the file's lock; `name` writes a named save instead of the current state. */
export async function writeProjectState(
  projectRoot: string,
  state: ContextState,
  options: { name?: string | null; now?: Date } = {},
): Promise<WrittenState> {
  await ensureProjectCtxDir(projectRoot);
  const path = statePath(projectRoot, options.name);
  const { value, movedAside } = await updateStateFileOrQuarantine(path, ContextStateSchema, () => state, {
    codec: "lz4",
    now: options.now ?? new Date(),
  });
  return { state: value, movedAside };
}
