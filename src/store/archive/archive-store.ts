// The transcript archive, `~/.ctx/archive/`: one container per session, `<session>.ctx` (zstd level 19,
// msgpack { meta, files: [{ path, data }] }), written then read back and every file's SHA-256 checked before
// its `<session>.meta.json` (what listings read) is written; `<session>.pin` keeps it from pruning. The
// transcripts are kept byte for byte, NOT redacted: the point is that `claude --resume` works on what
// `restore` puts back, so the archive holds exactly what Claude Code's own folder held, 0600 in a 0700 folder.
// Past 300 lines on purpose: write, verify, read back and restore share one layout, checked in one place.
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import * as z from "zod/mini";
import { claudeConfigDir } from "../../config/claude-paths.ts";
import { ctxHome } from "../../config/paths.ts";
import {
  type ArchivedFile,
  type ArchiveMeta,
  ArchiveMetaSchema,
  type TranscriptOnDisk,
} from "../../core/archive/plan.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { decodeContainer, encodeContainer } from "../files/container.ts";

const SAFE_SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const META_SUFFIX = ".meta.json";

export function archiveDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "archive");
}

export function isArchivableId(sessionId: string): boolean {
  return SAFE_SESSION_ID.test(sessionId);
}

const containerPath = (dir: string, id: string) => join(dir, `${id}.ctx`);
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

/** The transcript, then every regular file of its session folder (subagents, spilled tool results). */
async function sessionFiles(claudeDir: string, transcript: DiscoveredTranscript): Promise<string[]> {
  const files = [transcript.path];
  const walk = async (folder: string) => {
    for (const name of (await listDir(folder)).sort()) {
      const path = join(folder, name);
      const info = await lstat(path).catch(() => null);
      if (info?.isDirectory()) await walk(path);
      else if (info?.isFile()) files.push(path);
    }
  };
  await walk(join(claudeDir, "projects", transcript.project, transcript.sessionId));
  return files;
}

const ContainerSchema = z.object({
  meta: ArchiveMetaSchema,
  files: z.array(z.object({ path: z.string(), data: z.instanceof(Uint8Array) })),
});

/**
 * Archives one session: its files into one zstd-19 container, read back and verified file by file before the
 * meta that lists it is written. A transcript written to while it is read is caught by the check of its
 * size and last write after reading, and left for the next pass.
 */
export async function archiveSession(
  env: NodeJS.ProcessEnv,
  claudeDir: string,
  transcript: DiscoveredTranscript,
  now: Date,
): Promise<ArchiveMeta> {
  const dir = archiveDir(env);
  await ensurePrivateDir(dir);
  const paths = await sessionFiles(claudeDir, transcript);
  const files: { path: string; data: Uint8Array }[] = [];
  const listed: ArchivedFile[] = [];
  for (const path of paths) {
    const data = await readFile(path);
    const info = await stat(path);
    const rel = relative(claudeDir, path).split(sep).join("/");
    files.push({ path: rel, data });
    listed.push({ path: rel, bytes: data.length, sha256: sha256(data), mtimeMs: info.mtimeMs });
  }
  const after = await stat(transcript.path);
  if (after.size !== listed[0]?.bytes || after.mtimeMs !== transcript.mtimeMs) {
    throw new CtxError("CONFLICT", `${transcript.path} changed while it was archived`, {
      hint: "the session is in use again; the next archive pass takes it",
    });
  }
  const meta: ArchiveMeta = {
    version: 1,
    sessionId: transcript.sessionId,
    project: transcript.project,
    transcriptPath: transcript.path,
    claudeDir,
    cwd: cwdOf(files[0]?.data ?? new Uint8Array()),
    archivedAt: now.toISOString(),
    files: listed,
    bytes: 0,
  };
  const encoded = encodeContainer({ meta, files }, "zstd");
  const target = containerPath(dir, transcript.sessionId);
  await writeFileAtomic(target, encoded);
  // Read back from disk and checked like a restore would, before the archive counts.
  await readVerified(target, transcript.sessionId);
  const written = { ...meta, bytes: encoded.length };
  await writeFileAtomic(metaPath(dir, transcript.sessionId), `${JSON.stringify(written, null, 2)}\n`);
  return written;
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

export interface RestoreOutcome {
  meta: ArchiveMeta;
  /** Files written back, absolute. */
  restored: string[];
  /** Files already there with the same bytes, left alone. */
  unchanged: string[];
}

/**
 * Puts a session's files back where Claude Code looks for them (its config folder now), byte for byte. Everything is decoded and
 * checked first (a damaged archive restores nothing); a different file already at a target stops the
 * restore unless `force`. Each file is written atomically and dated now, so Claude Code's next cleanup
 * does not delete it again at once.
 */
export async function restoreArchived(
  env: NodeJS.ProcessEnv,
  sessionId: string,
  options: { force?: boolean; now: Date },
): Promise<RestoreOutcome> {
  if (!isArchivableId(sessionId)) {
    throw new CtxError("USAGE", `"${sessionId}" is not a session id`, { hint: "`ctx archive list` shows them" });
  }
  const dir = archiveDir(env);
  const path = containerPath(dir, sessionId);
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) {
    throw new CtxError("NOT_FOUND", `session ${sessionId} is not in the archive`, {
      hint: "`ctx archive list` shows the archived sessions",
    });
  }
  const { meta, files } = await readVerified(path, sessionId);
  // Where Claude Code looks now (CLAUDE_CONFIG_DIR may have changed since): never a folder the archive names.
  const claudeDir = claudeConfigDir(env);
  const targets = files.map((file) => ({ ...file, target: targetOf(claudeDir, file.path) }));
  const unchanged: string[] = [];
  const todo: typeof targets = [];
  for (const file of targets) {
    const existing = await lstat(file.target).catch(() => null);
    if (existing === null) {
      todo.push(file);
      continue;
    }
    if (!existing.isFile()) {
      throw new CtxError("CONFLICT", `${file.target} exists and is not a regular file`, {
        hint: "move it away and restore again; nothing was restored",
      });
    }
    if (sha256(await readFile(file.target)) === sha256(file.data)) unchanged.push(file.target);
    else if (options.force === true) todo.push(file);
    else {
      throw new CtxError("CONFLICT", `${file.target} exists with different content`, {
        hint: "Claude Code has a newer copy: keep it, or pass --force to replace it with the archived one; nothing was restored",
      });
    }
  }
  for (const file of todo) {
    await mkdir(dirname(file.target), { recursive: true, mode: 0o700 });
    const temp = `${file.target}.ctx-restore-${process.pid}.tmp`;
    await writeFile(temp, file.data, { mode: 0o600 });
    await utimes(temp, options.now, options.now);
    await rename(temp, file.target);
  }
  return { meta, restored: todo.map((file) => file.target), unchanged };
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

/** Decodes a container and checks it whole: its checksum, its shape, its session, and every file's SHA-256. */
async function readVerified(path: string, sessionId: string): Promise<z.infer<typeof ContainerSchema>> {
  const damaged = (what: string) =>
    new CtxError("STATE_CORRUPT", `the archive of session ${sessionId} is damaged: ${what}`, {
      hint: "nothing was restored from it; if Claude Code still has the transcript, `ctx archive run` archives it again",
    });
  let decoded: unknown;
  try {
    decoded = decodeContainer(await readFile(path), path).value;
  } catch (error) {
    throw damaged(error instanceof Error ? error.message : String(error));
  }
  const parsed = z.safeParse(ContainerSchema, decoded);
  if (!parsed.success) throw damaged("not a session archive");
  const { meta, files } = parsed.data;
  if (meta.sessionId !== sessionId) throw damaged(`it holds session ${meta.sessionId}`);
  if (files.length !== meta.files.length) throw damaged("its file list does not match its files");
  for (const [i, file] of files.entries()) {
    const listed = meta.files[i];
    if (listed?.path !== file.path || listed.sha256 !== sha256(file.data) || listed.bytes !== file.data.length) {
      throw damaged(`${file.path} does not match its checksum`);
    }
    targetOf(meta.claudeDir, file.path);
  }
  return parsed.data;
}

/** The first `cwd` the transcript records (its envelope carries one on most lines). */
function cwdOf(transcript: Uint8Array): string | null {
  const head = Buffer.from(transcript.subarray(0, 256 * 1024))
    .toString("utf8")
    .split("\n")
    .slice(0, 50);
  for (const line of head) {
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
      if (typeof cwd === "string" && cwd !== "") return cwd;
    } catch {
      // a partial or malformed line: the next one may carry it
    }
  }
  return null;
}

/** An archived path inside Claude Code's folder; anything that would land outside it is refused. */
function targetOf(claudeDir: string, path: string): string {
  const clean = normalize(path);
  if (isAbsolute(clean) || clean.startsWith("..") || !clean.startsWith(`projects${sep}`)) {
    throw new CtxError("STATE_CORRUPT", `archived path ${path} is outside Claude Code's projects folder`, {
      hint: "the archive was not written by ctx; nothing was restored",
    });
  }
  return join(claudeDir, clean);
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

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
