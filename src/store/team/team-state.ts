// ctx's own team state under CTX_HOME (never a file a repository commits: sharing is the user's decision, so no
// project's .ctx/ can share itself): the projects this user shared with `ctx team share` (each with the checkout
// folders it was shared from, which is how an ingested session is matched to it without running git), and when the
// last push ended. State files: atomic replacement, 0600 in a 0700 folder, updates under the file's lock.
import { join } from "node:path";
import * as z from "zod/mini";
import { ctxHome } from "../../config/paths.ts";
import { readStateFile, updateStateFile } from "../files/state-file.ts";

export const SharedProjectSchema = z.object({
  remoteUrl: z.string(),
  repoPath: z.string(),
  /** Absolute folders of this machine's checkouts it was shared from (a session whose cwd is inside one belongs). */
  roots: z.array(z.string()),
  sharedAt: z.number(),
});
export type SharedProject = z.infer<typeof SharedProjectSchema>;

const SharedProjectsSchema = z.object({ projects: z.array(SharedProjectSchema) });

export const PushStateSchema = z.object({
  /** When the last push that reached the server ended (ms), or null. */
  lastPushAt: z.nullable(z.number()),
  /** Sessions and chunks that push sent. */
  lastPushSessions: z.number(),
  lastPushChunks: z.number(),
  /** When the last attempt failed (ms) and why (password-free), or null after a success. */
  lastErrorAt: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
});
export type PushState = z.infer<typeof PushStateSchema>;

export function teamStateDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "team");
}

const sharedPath = (env: NodeJS.ProcessEnv) => join(teamStateDir(env), "shared-projects.ctx");
const pushStatePath = (env: NodeJS.ProcessEnv) => join(teamStateDir(env), "push-state.ctx");

export async function readSharedProjects(env: NodeJS.ProcessEnv): Promise<SharedProject[]> {
  return (await readStateFile(sharedPath(env), SharedProjectsSchema))?.projects ?? [];
}

/** Every checkout folder of every shared project. */
export function sharedRoots(projects: readonly SharedProject[]): string[] {
  return projects.flatMap((p) => p.roots);
}

/** The shared project a session with this cwd belongs to (the longest matching root wins), or null. */
export function sharedProjectOf(projects: readonly SharedProject[], cwd: string | null): SharedProject | null {
  if (cwd === null) return null;
  let best: { project: SharedProject; length: number } | null = null;
  for (const project of projects) {
    for (const root of project.roots) {
      const base = root.endsWith("/") ? root.slice(0, -1) : root;
      if ((cwd === base || cwd.startsWith(`${base}/`)) && (best === null || base.length > best.length)) {
        best = { project, length: base.length };
      }
    }
  }
  return best?.project ?? null;
}

/** Records `root` as a checkout of the shared project `identity`; returns whether it was new. */
export async function addSharedProject(
  env: NodeJS.ProcessEnv,
  identity: { remoteUrl: string; repoPath: string },
  root: string,
  now = Date.now(),
): Promise<boolean> {
  let added = false;
  await updateStateFile(
    sharedPath(env),
    SharedProjectsSchema,
    (current) => {
      const projects = (current?.projects ?? []).map((p) => ({ ...p, roots: p.roots.filter((r) => r !== root) }));
      const same = projects.find((p) => p.remoteUrl === identity.remoteUrl && p.repoPath === identity.repoPath);
      const before = (current?.projects ?? []).some((p) => p.roots.includes(root));
      added = !before;
      if (same) same.roots.push(root);
      else projects.push({ ...identity, roots: [root], sharedAt: now });
      return { projects: projects.filter((p) => p.roots.length > 0) };
    },
    { codec: "none" },
  );
  return added;
}

/** Stops sharing the checkout at `root`; returns the project it belonged to, or null when it was not shared. */
export async function removeSharedRoot(env: NodeJS.ProcessEnv, root: string): Promise<SharedProject | null> {
  let removed: SharedProject | null = null;
  await updateStateFile(
    sharedPath(env),
    SharedProjectsSchema,
    (current) => {
      const projects = current?.projects ?? [];
      removed = projects.find((p) => p.roots.includes(root)) ?? null;
      return {
        projects: projects
          .map((p) => ({ ...p, roots: p.roots.filter((r) => r !== root) }))
          .filter((p) => p.roots.length > 0),
      };
    },
    { codec: "none" },
  );
  return removed;
}

export async function readPushState(env: NodeJS.ProcessEnv): Promise<PushState | null> {
  return readStateFile(pushStatePath(env), PushStateSchema);
}

export async function recordPush(
  env: NodeJS.ProcessEnv,
  outcome: { ok: true; sessions: number; chunks: number } | { ok: false; error: string },
  now = Date.now(),
): Promise<void> {
  await updateStateFile(
    pushStatePath(env),
    PushStateSchema,
    (current) => {
      const base = current ?? {
        lastPushAt: null,
        lastPushSessions: 0,
        lastPushChunks: 0,
        lastErrorAt: null,
        lastError: null,
      };
      if (outcome.ok) {
        return {
          lastPushAt: now,
          lastPushSessions: outcome.sessions,
          lastPushChunks: outcome.chunks,
          lastErrorAt: null,
          lastError: null,
        };
      }
      return { ...base, lastErrorAt: now, lastError: outcome.error };
    },
    { codec: "none" },
  );
}

/** The shared checkout folders for an ingest to queue for; a damaged state file shares nothing (never blocks it). */
export async function sharedRootsForIngest(env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    return sharedRoots(await readSharedProjects(env));
  } catch {
    return [];
  }
}
