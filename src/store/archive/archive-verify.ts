// Checking an archived session: its container read as a stream (archive-container.ts) and held to its meta, file
// by file, and every archived path kept inside Claude Code's projects folder. Used when a session is archived
// (the copy is read back before it counts) and twice by restore (before anything is written, and while writing).
import { isAbsolute, join, normalize, sep } from "node:path";
import * as z from "zod/mini";
import { type ArchiveMeta, ArchiveMetaSchema } from "../../core/archive/plan.ts";
import { CtxError, explainSystemError } from "../../errors.ts";
import type { FileSink, StreamedFile } from "./archive-container.ts";
import { readArchiveContainer } from "./archive-container-read.ts";

/**
 * Reads a container and checks it whole: its header and checksum, its shape, its session, and every file's
 * SHA-256 against its meta; file bytes go to `sink` when given. Damage is STATE_CORRUPT naming the session.
 */
export async function readVerified(
  path: string,
  sessionId: string,
  sink?: FileSink,
): Promise<{ meta: ArchiveMeta; files: StreamedFile[] }> {
  const damaged = (what: string) =>
    new CtxError("STATE_CORRUPT", `the archive of session ${sessionId} is damaged: ${what}`, {
      hint: "nothing was restored from it; if Claude Code still has the transcript, `ctx archive run` archives it again",
    });
  let read: Awaited<ReturnType<typeof readArchiveContainer>>;
  try {
    read = await readArchiveContainer(path, sink);
  } catch (error) {
    if (error instanceof CtxError) throw error;
    // The system's failures (a full disk while restoring) are not the archive's.
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw explainSystemError(error) ?? error;
    throw damaged(error instanceof Error ? error.message : String(error));
  }
  const parsed = z.safeParse(ArchiveMetaSchema, read.meta);
  if (!parsed.success) throw damaged("not a session archive");
  const meta = parsed.data;
  if (meta.sessionId !== sessionId) throw damaged(`it holds session ${meta.sessionId}`);
  if (read.files.length !== meta.files.length) throw damaged("its file list does not match its files");
  for (const [i, file] of read.files.entries()) {
    const listed = meta.files[i];
    if (listed?.path !== file.name || listed.sha256 !== file.sha256 || listed.bytes !== file.bytes) {
      throw damaged(`${file.name} does not match its checksum`);
    }
    targetOf(meta.claudeDir, file.name);
  }
  return { meta, files: read.files };
}

/** An archived path inside Claude Code's folder; anything that would land outside it is refused. */
export function targetOf(claudeDir: string, path: string): string {
  const clean = normalize(path);
  if (isAbsolute(clean) || clean.startsWith("..") || !clean.startsWith(`projects${sep}`)) {
    throw new CtxError("STATE_CORRUPT", `archived path ${path} is outside Claude Code's projects folder`, {
      hint: "the archive was not written by ctx; nothing was restored",
    });
  }
  return join(claudeDir, clean);
}
