// A session on this machine, by id, for `ctx fork`: the session index knows its folder and transcript; a session
// not indexed yet is looked for in Claude Code's projects folders (`<projects>/<folder>/<id>.jsonl`), its folder read
// from the transcript's `cwd`. Only a transcript that is there now counts: a fork needs it.
import { existsSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { claudeProjectsDirs } from "../config/claude-paths.ts";
import { transcriptCwd } from "../store/archive/archive-store.ts";
import { resolveIndexPath } from "./paths.ts";
import { openSessionIndex } from "./session-index/session-index.ts";

export interface LocalSession {
  id: string;
  /** The folder the session ran in (null when the transcript does not say). */
  cwd: string | null;
  transcriptPath: string;
}

/** The session `id` on this machine, or null. `id` must already be a plain file name (no separator). */
export async function findLocalSession(id: string, env: NodeJS.ProcessEnv): Promise<LocalSession | null> {
  return (await fromIndex(id, env)) ?? (await fromProjects(id, env));
}

async function fromIndex(id: string, env: NodeJS.ProcessEnv): Promise<LocalSession | null> {
  const indexPath = resolveIndexPath(env);
  if (!existsSync(indexPath)) return null;
  let session: ReturnType<ReturnType<typeof openSessionIndex>["getSession"]>;
  try {
    const index = openSessionIndex(indexPath, { readonly: true });
    try {
      session = index.getSession(id);
    } finally {
      index.close();
    }
  } catch {
    // A damaged or busy index is not needed here: the projects folders are looked at next.
    return null;
  }
  if (session === null || session.path === "" || !(await isRegularFile(session.path))) return null;
  return { id, cwd: session.cwd, transcriptPath: session.path };
}

async function fromProjects(id: string, env: NodeJS.ProcessEnv): Promise<LocalSession | null> {
  for (const projectsDir of claudeProjectsDirs(env)) {
    const folders = await readdir(projectsDir, { withFileTypes: true }).catch(() => []);
    for (const folder of folders) {
      if (!folder.isDirectory()) continue;
      const path = join(projectsDir, folder.name, `${id}.jsonl`);
      if (!(await isRegularFile(path))) continue;
      return { id, cwd: await transcriptCwd(path).catch(() => null), transcriptPath: path };
    }
  }
  return null;
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null))?.isFile() === true;
}
