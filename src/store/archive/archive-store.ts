// The transcript archive, `~/.ctx/archive/`: one container per session, `<session>.ctx` (zstd level 19, written
// as a stream by archive-container.ts), read back and every file's SHA-256 checked (archive-verify.ts) before
// its `<session>.meta.json` (what listings read) is written; `<session>.pin` keeps it from pruning. The
// transcripts are kept byte for byte, NOT redacted: the point is that `claude --resume` works on what
// `restore` puts back, so the archive holds exactly what Claude Code's own folder held, 0600 in a 0700 folder.
import { lstat, readdir, readFile, stat, unlink } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import * as z from "zod/mini";
import { ctxHome } from "../../config/paths.ts";
import {
  type ArchivedFile,
  type ArchiveMeta,
  ArchiveMetaSchema,
  type TranscriptOnDisk,
} from "../../core/archive/plan.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic, writeFileAtomicWith } from "../files/atomic-write.ts";
import { type FileToArchive, openForArchive, type StreamedFile, writeArchiveContainer } from "./archive-container.ts";
import { readVerified } from "./archive-verify.ts";

const SAFE_SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const META_SUFFIX = ".meta.json";

export function archiveDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "archive");
}

export function isArchivableId(sessionId: string): boolean {
  return SAFE_SESSION_ID.test(sessionId);
}

const containerPath = (dir: string, id: string) => join(dir, `${id}.ctx`);
/** Where the container of `sessionId` is (or would be). */
export const archiveContainerPath = (env: NodeJS.ProcessEnv, sessionId: string) =>
  containerPath(archiveDir(env), sessionId);
const metaPath = (dir: string, id: string) => join(dir, `${id}${META_SUFFIX}`);
const pinPath = (dir: string, id: string) => join(dir, `${id}.pin`);

export interface DiscoveredTranscript extends TranscriptOnDisk {
  project: string;
}

/** Every main transcript under `<claudeDir>/projects/*` (regular files only; links are not followed). */
export async function discoverTranscripts(claudeDir: string): Promise<DiscoveredTranscript[]> {
  const projects = join(claudeDir, "projects");
  const found: DiscoveredTranscript[] = [];
  for (const project of await listDir(projects)) {
    const folder = join(projects, project);
    if (!(await lstat(folder).catch(() => null))?.isDirectory()) continue;
    for (const name of await listDir(folder)) {
      const sessionId = name.replace(/\.jsonl$/, "");
      if (!name.endsWith(".jsonl") || !isArchivableId(sessionId)) continue;
      const info = await lstat(join(folder, name)).catch(() => null);
      if (!info?.isFile()) continue;
      found.push({ sessionId, project, path: join(folder, name), mtimeMs: info.mtimeMs, bytes: info.size });
    }
  }
  return found;
}

/** The transcript, then every regular file of its session folder (subagents, spilled tool results); no links. */
async function sessionFiles(claudeDir: string, transcript: DiscoveredTranscript): Promise<FileToArchive[]> {
  const name = (path: string) => relative(claudeDir, path).split(sep).join("/");
  const files: FileToArchive[] = [{ path: transcript.path, name: name(transcript.path), bytes: transcript.bytes }];
  const walk = async (folder: string) => {
    for (const entry of (await listDir(folder)).sort()) {
      const path = join(folder, entry);
      const info = await lstat(path).catch(() => null);
      if (info?.isDirectory()) await walk(path);
      else if (info?.isFile()) files.push({ path, name: name(path), bytes: info.size });
    }
  };
  // The session folder itself is checked too: readdir would follow a link there (out of Claude Code's folder).
  const folder = join(claudeDir, "projects", transcript.project, transcript.sessionId);
  if ((await lstat(folder).catch(() => null))?.isDirectory()) await walk(folder);
  return files;
}

/**
 * Archives one session: its files streamed into one zstd-19 container (memory does not grow with their size),
 * read back and verified file by file before it replaces the last copy and the meta that lists it is written. A
 * transcript that changed since it was found, or changes while it is read, is left for the next pass.
 */
export async function archiveSession(
  env: NodeJS.ProcessEnv,
  claudeDir: string,
  transcript: DiscoveredTranscript,
  now: Date,
): Promise<ArchiveMeta> {
  const dir = archiveDir(env);
  await ensurePrivateDir(dir);
  const files = await sessionFiles(claudeDir, transcript);
  const cwd = await transcriptCwd(transcript.path);
  const target = containerPath(dir, transcript.sessionId);
  let meta: ArchiveMeta | undefined;
  await writeFileAtomicWith(target, async (handle, temp) => {
    await writeArchiveContainer(handle, files, (streamed) => {
      const first = streamed[0];
      if (first?.bytes !== transcript.bytes || first.mtimeMs !== transcript.mtimeMs) {
        throw new CtxError("CONFLICT", `${transcript.path} changed while it was archived`, {
          hint: "the session is in use again; the next archive pass takes it",
        });
      }
      meta = {
        version: 1,
        sessionId: transcript.sessionId,
        project: transcript.project,
        transcriptPath: transcript.path,
        claudeDir,
        cwd,
        archivedAt: now.toISOString(),
        files: streamed.map(toArchivedFile),
        bytes: 0,
      };
      return meta;
    });
    // Read back from disk and checked like a restore would, before it counts (and replaces an older copy).
    await readVerified(temp, transcript.sessionId);
  });
  if (meta === undefined) throw new CtxError("INTERNAL", `the archive of ${transcript.sessionId} has no meta`);
  const written: ArchiveMeta = { ...meta, bytes: (await stat(target)).size };
  await writeFileAtomic(metaPath(dir, transcript.sessionId), `${JSON.stringify(written, null, 2)}\n`);
  return written;
}

const toArchivedFile = (file: StreamedFile): ArchivedFile => ({
  path: file.name,
  bytes: file.bytes,
  sha256: file.sha256,
  mtimeMs: file.mtimeMs,
});

/** The first `cwd` the transcript records (its envelope carries one on most lines), from its first 256 KiB. */
export async function transcriptCwd(path: string): Promise<string | null> {
  const handle = await openForArchive(path);
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  for (const line of head.toString("utf8").split("\n").slice(0, 50)) {
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
      if (typeof cwd === "string" && cwd !== "") return cwd;
    } catch {
      // a partial or malformed line: the next one may carry it
    }
  }
  return null;
}

/** Every archived session's meta; a meta that does not parse is skipped (its container stays). */
export async function listArchived(env: NodeJS.ProcessEnv): Promise<ArchiveMeta[]> {
  const dir = archiveDir(env);
  const metas: ArchiveMeta[] = [];
  for (const name of await listDir(dir)) {
    if (!name.endsWith(META_SUFFIX) || !isArchivableId(name.slice(0, -META_SUFFIX.length))) continue;
    const meta = await readMeta(join(dir, name));
    if (meta !== null) metas.push(meta);
  }
  return metas;
}

export async function readArchivedMeta(env: NodeJS.ProcessEnv, sessionId: string): Promise<ArchiveMeta | null> {
  if (!isArchivableId(sessionId)) return null;
  return readMeta(metaPath(archiveDir(env), sessionId));
}

/** Deletes archived sessions (container, meta and pin). */
export async function removeArchived(env: NodeJS.ProcessEnv, sessionIds: readonly string[]): Promise<void> {
  const dir = archiveDir(env);
  for (const id of sessionIds) {
    if (!isArchivableId(id)) continue;
    for (const path of [metaPath(dir, id), containerPath(dir, id), pinPath(dir, id)]) {
      await unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
  }
}

export async function pinnedArchives(env: NodeJS.ProcessEnv): Promise<Set<string>> {
  const names = await listDir(archiveDir(env));
  return new Set(names.filter((name) => name.endsWith(".pin")).map((name) => name.slice(0, -4)));
}

export async function setArchivePinned(env: NodeJS.ProcessEnv, sessionId: string, pinned: boolean): Promise<void> {
  if ((await readArchivedMeta(env, sessionId)) === null) {
    throw new CtxError("NOT_FOUND", `session ${sessionId} is not in the archive`, {
      hint: "`ctx archive list` shows the archived sessions",
    });
  }
  const path = pinPath(archiveDir(env), sessionId);
  if (pinned) await writeFileAtomic(path, "");
  else await unlink(path).catch(() => undefined);
}

/** The archive's size on disk (containers and metas). */
export async function archiveBytes(env: NodeJS.ProcessEnv): Promise<{ sessions: number; bytes: number }> {
  const dir = archiveDir(env);
  let bytes = 0;
  let sessions = 0;
  for (const name of await listDir(dir)) {
    const info = await lstat(join(dir, name)).catch(() => null);
    if (!info?.isFile()) continue;
    bytes += info.size;
    if (name.endsWith(".ctx")) sessions += 1;
  }
  return { sessions, bytes };
}

async function readMeta(path: string): Promise<ArchiveMeta | null> {
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) return null;
  try {
    const parsed = z.safeParse(ArchiveMetaSchema, JSON.parse(await readFile(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function listDir(path: string): Promise<string[]> {
  return readdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return [] as string[];
    throw error;
  });
}
