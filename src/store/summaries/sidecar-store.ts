// `.ctx/summaries/<session-id>.ctx`: one session's summaries, keyed by message uuid (container, LZ4, 0600,
// written atomically under the file's lock). Summaries can always be made again, so a damaged sidecar is
// moved aside (`.corrupt-<time>`, kept for inspection) and regenerated, never a crash.
import { createHash } from "node:crypto";
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { type Sidecar, SidecarSchema } from "../../core/summaries/sidecar.ts";
import { isCtxError } from "../../errors.ts";
import { HOT_CODEC } from "../files/codecs.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { quarantineIfDamaged, updateStateFileOrQuarantine } from "../files/quarantine.ts";
import { readStateFile } from "../files/state-file.ts";

const SAFE_SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function summariesDir(projectRoot: string): string {
  return join(projectPaths(projectRoot).ctxDir, "summaries");
}

export function sidecarPath(projectRoot: string, sessionId: string): string {
  const name =
    SAFE_SESSION_ID.test(sessionId) && !sessionId.startsWith(".")
      ? sessionId
      : createHash("sha256").update(sessionId).digest("hex");
  return join(summariesDir(projectRoot), `${name}.ctx`);
}

export interface SidecarRead {
  sidecar: Sidecar | null;
  movedAside: string | null;
}

export async function readSidecar(projectRoot: string, sessionId: string, now: Date): Promise<SidecarRead> {
  const path = sidecarPath(projectRoot, sessionId);
  try {
    const sidecar = await readStateFile(path, SidecarSchema);
    // A sidecar of another session under this name (a hashed-name collision, a copied file) is not ours.
    return { sidecar: sidecar?.sessionId === sessionId ? sidecar : null, movedAside: null };
  } catch (error) {
    if (!isCtxError(error) || (error.code !== "STATE_CORRUPT" && error.code !== "STATE_UNSUPPORTED_VERSION")) {
      throw error;
    }
    return { sidecar: null, movedAside: await quarantineIfDamaged(path, SidecarSchema, now) };
  }
}

/** Read-modify-write under the sidecar's lock; a damaged file is moved aside first. */
export async function updateSidecar(
  projectRoot: string,
  sessionId: string,
  change: (current: Sidecar | null) => Sidecar,
  now: Date,
): Promise<{ sidecar: Sidecar; movedAside: string | null }> {
  await ensureProjectCtxDir(projectRoot);
  const path = sidecarPath(projectRoot, sessionId);
  const { value, movedAside } = await updateStateFileOrQuarantine(
    path,
    SidecarSchema,
    (current) => change(current?.sessionId === sessionId ? current : null),
    { codec: HOT_CODEC, now },
  );
  return { sidecar: value, movedAside };
}

/** Deletes one session's sidecar, or every sidecar of the project; returns the files removed. */
export async function clearSidecars(projectRoot: string, sessionId?: string): Promise<string[]> {
  const paths =
    sessionId === undefined
      ? (await readdir(summariesDir(projectRoot)).catch(() => [] as string[]))
          .filter((name) => name.endsWith(".ctx"))
          .map((name) => join(summariesDir(projectRoot), name))
      : [sidecarPath(projectRoot, sessionId)];
  const removed: string[] = [];
  for (const path of paths) {
    try {
      await unlink(path);
      removed.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return removed;
}
