// `ctx archive restore`: puts an archived session's files back where Claude Code looks for them, byte for byte.
// The container is read twice as a stream (checked whole first, then decoded into temp files that are checked
// again before they are renamed into place), so memory does not grow with the transcript's size.
import { type FileHandle, lstat, mkdir, open, rename, unlink, utimes } from "node:fs/promises";
import { dirname } from "node:path";
import { claudeConfigDir } from "../../config/claude-paths.ts";
import type { ArchiveMeta } from "../../core/archive/plan.ts";
import { CtxError } from "../../errors.ts";
import { CLAUDE_WRITE_FLAGS, claudeTargetState, claudeTempPath } from "../files/claude-file.ts";
import type { FileSink } from "./archive-container.ts";
import { archiveContainerPath, isArchivableId } from "./archive-store.ts";
import { readVerified, targetOf } from "./archive-verify.ts";

export interface RestoreOutcome {
  meta: ArchiveMeta;
  /** Files written back, absolute. */
  restored: string[];
  /** Files already there with the same bytes, left alone. */
  unchanged: string[];
}

/**
 * Restores a session into Claude Code's config folder as it is now. A damaged archive restores nothing; a
 * different file already at a target stops the restore unless `force`. Files are dated now, so Claude Code's
 * next cleanup does not delete them again at once.
 */
export async function restoreArchived(
  env: NodeJS.ProcessEnv,
  sessionId: string,
  options: { force?: boolean; now: Date },
): Promise<RestoreOutcome> {
  if (!isArchivableId(sessionId)) {
    throw new CtxError("USAGE", `"${sessionId}" is not a session id`, { hint: "`ctx archive list` shows them" });
  }
  const path = archiveContainerPath(env, sessionId);
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) {
    throw new CtxError("NOT_FOUND", `session ${sessionId} is not in the archive`, {
      hint: "`ctx archive list` shows the archived sessions",
    });
  }
  const { meta } = await readVerified(path, sessionId);
  // Where Claude Code looks now (CLAUDE_CONFIG_DIR may have changed since): never a folder the archive names.
  const claudeDir = claudeConfigDir(env);
  const unchanged: string[] = [];
  const todo = new Map<string, string>();
  for (const file of meta.files) {
    const target = targetOf(claudeDir, file.path);
    const state = await claudeTargetState(target, file.sha256, "nothing was restored");
    if (state === "absent") todo.set(file.path, target);
    else if (state === "identical") unchanged.push(target);
    else if (options.force === true) todo.set(file.path, target);
    else {
      throw new CtxError("CONFLICT", `${target} exists with different content`, {
        hint: "Claude Code has a newer copy: keep it, or pass --force to replace it with the archived one; nothing was restored",
      });
    }
  }
  if (todo.size > 0) await extractInto(path, meta, todo, options.now);
  return { meta, restored: [...todo.values()], unchanged };
}

/** Decodes the files `todo` names (archived path -> target) into temp files, then renames them into place. */
async function extractInto(
  path: string,
  meta: ArchiveMeta,
  todo: ReadonlyMap<string, string>,
  now: Date,
): Promise<void> {
  const temps = new Map<string, string>();
  let handle: FileHandle | null = null;
  // Pieces arrive small (16 KiB); gathered into one reused buffer, they reach the disk a MiB at a time.
  const staging = Buffer.allocUnsafe(1 << 20);
  let staged = 0;
  const flush = async () => {
    for (let at = 0; at < staged; ) at += (await (handle as FileHandle).write(staging, at, staged - at)).bytesWritten;
    staged = 0;
  };
  const sink: FileSink = {
    open: async (name) => {
      const target = todo.get(name);
      if (target === undefined) return;
      const temp = claudeTempPath(target, "restore");
      temps.set(target, temp);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      // Never through a link left at the temp name.
      handle = await open(temp, CLAUDE_WRITE_FLAGS, 0o600);
    },
    write: async (chunk) => {
      if (handle === null) return;
      for (let at = 0; at < chunk.length; ) {
        const part = chunk.subarray(at, at + (staging.length - staged));
        staging.set(part, staged);
        staged += part.length;
        at += part.length;
        if (staged === staging.length) await flush();
      }
    },
    close: async () => {
      if (handle === null) return;
      await flush();
      const done = handle as FileHandle;
      handle = null;
      await done.close();
    },
  };
  try {
    const again = await readVerified(path, meta.sessionId, sink);
    // Replaced between the two reads (a pass archived the session again): not the files checked before.
    if (
      again.files.length !== meta.files.length ||
      again.files.some((file, i) => file.sha256 !== meta.files[i]?.sha256)
    ) {
      throw new CtxError("CONFLICT", `the archive of session ${meta.sessionId} changed while it was restored`, {
        hint: "restore again; nothing was restored",
      });
    }
    for (const [target, temp] of temps) {
      await utimes(temp, now, now);
      await rename(temp, target);
    }
  } catch (error) {
    await (handle as FileHandle | null)?.close().catch(() => undefined);
    for (const temp of temps.values()) await unlink(temp).catch(() => undefined);
    throw error;
  }
}
