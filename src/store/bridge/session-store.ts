// `<CTX_HOME>/bridge/sessions/<hash>.ctx`: one container file per chat conversation (atomic, locked, 0600,
// checksummed, LZ4), named by a hash of its key so no user or channel id ever becomes a path. Listing reads only
// regular files (a symlink planted in the folder is skipped, never followed).
import { createHash } from "node:crypto";
import { lstat, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { ctxHome } from "../../config/paths.ts";
import { type BridgeSession, BridgeSessionSchema, cleanBridgeSession } from "../../core/bridge/session.ts";
import { CtxError, isCtxError } from "../../errors.ts";
import { readStateFile, updateStateFile } from "../files/state-file.ts";

export function bridgeDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "bridge");
}

export function sessionsDir(env: NodeJS.ProcessEnv): string {
  return join(bridgeDir(env), "sessions");
}

export function sessionPath(dir: string, key: string): string {
  return join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.ctx`);
}

/**
 * The conversation's session, or null when it has none (or its file is not a regular file). Sessions are cleaned
 * as they are read (cleanBridgeSession), so text stored before the cleaning never reaches a command line.
 */
export async function readBridgeSession(dir: string, key: string): Promise<BridgeSession | null> {
  const path = sessionPath(dir, key);
  if (!(await isRegularFile(path))) return null;
  const session = await readStateFile(path, BridgeSessionSchema);
  return session === null ? null : cleanBridgeSession(session);
}

/** Read-modify-write under the file's lock; `update` sees the session cleaned, as readBridgeSession returns it. */
export async function updateBridgeSession(
  dir: string,
  key: string,
  update: (current: BridgeSession | null) => BridgeSession,
): Promise<BridgeSession> {
  await refuseNonRegular(sessionPath(dir, key));
  return updateStateFile(
    sessionPath(dir, key),
    BridgeSessionSchema,
    (current) => update(current === null ? null : cleanBridgeSession(current)),
    { codec: "lz4" },
  );
}

export async function deleteBridgeSession(dir: string, key: string): Promise<boolean> {
  try {
    await unlink(sessionPath(dir, key));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

export interface ListedSessions {
  sessions: { session: BridgeSession; bytes: number }[];
  /** Files that are damaged or hold something else: named, not thrown. */
  unreadable: string[];
}

export async function listBridgeSessions(dir: string): Promise<ListedSessions> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { sessions: [], unreadable: [] };
    throw error;
  }
  const listed: ListedSessions = { sessions: [], unreadable: [] };
  for (const name of names.filter((entry) => /^[0-9a-f]{32}\.ctx$/.test(entry)).sort()) {
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    if (info === null || !info.isFile()) continue;
    try {
      const session = await readStateFile(path, BridgeSessionSchema);
      if (session !== null) listed.sessions.push({ session: cleanBridgeSession(session), bytes: info.size });
    } catch (error) {
      if (!isCtxError(error)) throw error;
      listed.unreadable.push(path);
    }
  }
  listed.sessions.sort((a, b) => b.session.lastActiveAt.localeCompare(a.session.lastActiveAt));
  return listed;
}

async function refuseNonRegular(path: string): Promise<void> {
  const info = await lstat(path).catch(() => null);
  if (info !== null && !info.isFile()) {
    throw new CtxError("STATE_CORRUPT", `${path} is not a regular file (a symlink or folder where a session belongs)`, {
      hint: "remove it; ctx never follows links out of its folders",
    });
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  return info?.isFile() === true;
}
