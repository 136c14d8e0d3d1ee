// The session library's truth: every session's star, labels and note, in ctx's own state under CTX_HOME (never a file
// a repository commits, never the index: `index.db` is a cache that a reindex drops; search/ mirrors this into it).
// One container file, written atomically (0600 in a 0700 folder) under its lock, then copied whole to a backup beside
// it: a file damaged on disk is moved aside (kept for inspection) and the backup put back, so no saved annotation is
// lost, and the person is told in one clear error before anything else is written.
import { rename } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import type { SessionAnnotation } from "../../core/library/annotation.ts";
import { isEmptyAnnotation } from "../../core/library/annotation.ts";
import { type AnnotationRecord, AnnotationRecordSchema } from "../../core/library/annotation-schema.ts";
import { WITHOUT_CONTROL_CHARACTERS } from "../../core/text/control-characters.ts";
import { CtxError, isCtxError } from "../../errors.ts";
import { withLock } from "../files/lock.ts";
import { readStateFile, writeStateFile } from "../files/state-file.ts";
import { libraryDir } from "./library-dir.ts";

const SessionKeySchema = z.string().check(z.minLength(1), z.maxLength(200), z.regex(WITHOUT_CONTROL_CHARACTERS));

export const LibraryFileSchema = z.object({
  version: z.literal(1),
  /** By session id. */
  sessions: z.record(SessionKeySchema, AnnotationRecordSchema),
});
export type LibraryFile = z.infer<typeof LibraryFileSchema>;
export type LibraryEntries = LibraryFile["sessions"];

/** The library's folder: one definition (./library-dir.ts), which the fork log uses without loading this module. */
export { libraryDir };
export const libraryPath = (env: NodeJS.ProcessEnv) => join(libraryDir(env), "annotations.ctx");
/** The last good copy: written after every change, read only when the file itself is damaged. */
export const libraryBackupPath = (env: NodeJS.ProcessEnv) => join(libraryDir(env), "annotations.backup.ctx");

/** Every annotated session. A damaged file is recovered from its backup and reported (STATE_CORRUPT). */
export async function readLibrary(env: NodeJS.ProcessEnv, now = new Date()): Promise<LibraryEntries> {
  try {
    return (await readStateFile(libraryPath(env), LibraryFileSchema))?.sessions ?? {};
  } catch (error) {
    if (!isDamage(error)) throw error;
    return withLock(libraryPath(env), async () => {
      await readSound(env, now); // under the lock: recovers (and throws) unless another process already did
      return (await readStateFile(libraryPath(env), LibraryFileSchema))?.sessions ?? {};
    });
  }
}

/**
 * What a sync mirrors into the index: every annotated session, or null when the file is damaged (the mirror keeps
 * what it had; the person's next library command reports and recovers it). Never throws for damage.
 */
export async function readLibraryForMirror(env: NodeJS.ProcessEnv): Promise<LibraryEntries | null> {
  try {
    return (await readStateFile(libraryPath(env), LibraryFileSchema))?.sessions ?? {};
  } catch (error) {
    if (isDamage(error)) return null;
    throw error;
  }
}

/**
 * Changes one session's annotation under the file's lock: `change` gets the current one (null: none) and returns the
 * new one. An annotation left empty is removed. Returns the stored record, or null when it was removed.
 */
export async function changeAnnotation(
  env: NodeJS.ProcessEnv,
  sessionId: string,
  change: (current: SessionAnnotation | null) => SessionAnnotation,
  now = new Date(),
): Promise<AnnotationRecord | null> {
  const path = libraryPath(env);
  return withLock(path, async () => {
    const sessions = { ...(await readSound(env, now)) };
    const current = sessions[sessionId];
    const next = change(current === undefined ? null : annotationOf(current));
    const record = isEmptyAnnotation(next) ? null : { ...next, updatedAt: now.getTime() };
    if (record === null) delete sessions[sessionId];
    else sessions[sessionId] = record;
    const file: LibraryFile = { version: 1, sessions };
    await writeStateFile(path, LibraryFileSchema, file, { codec: "none" });
    await writeStateFile(libraryBackupPath(env), LibraryFileSchema, file, { codec: "none" });
    return record;
  });
}

export function annotationOf(record: AnnotationRecord): SessionAnnotation {
  return { starred: record.starred, labels: record.labels, note: record.note };
}

/** Under the lock: the file's sessions, or recovery from the backup and a STATE_CORRUPT that says what happened. */
async function readSound(env: NodeJS.ProcessEnv, now: Date): Promise<LibraryEntries> {
  const path = libraryPath(env);
  try {
    return (await readStateFile(path, LibraryFileSchema))?.sessions ?? {};
  } catch (error) {
    if (!isDamage(error)) throw error;
    const aside = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
    await rename(path, aside);
    const problem = error instanceof Error ? error.message : String(error);
    let backup: LibraryFile | null = null;
    try {
      backup = await readStateFile(libraryBackupPath(env), LibraryFileSchema);
    } catch {
      backup = null;
    }
    if (backup !== null) {
      await writeStateFile(path, LibraryFileSchema, backup, { codec: "none" });
      const count = Object.keys(backup.sessions).length;
      throw new CtxError(
        "STATE_CORRUPT",
        `the session library was damaged (${problem}); kept it as ${aside} and restored ${count} annotated session(s) from its backup`,
        { hint: "nothing was changed: run the command again", cause: error },
      );
    }
    throw new CtxError(
      "STATE_CORRUPT",
      `the session library was damaged (${problem}) and has no sound backup; kept it as ${aside}`,
      { hint: "nothing was changed; the library starts empty from the next command (the damaged file is kept)" },
    );
  }
}

function isDamage(error: unknown): boolean {
  return isCtxError(error) && error.code === "STATE_CORRUPT";
}
