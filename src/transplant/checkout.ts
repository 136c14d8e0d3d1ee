// This machine's checkout of a repository known by its remote (a teammate's project for `ctx fork`, docs/team.md):
// a git working tree whose remote is the one asked for (normalised by core/team/project-identity.ts, `origin`
// first), holding the project's folder. Looked for in the folders given (the current folder's repository first, then
// the folders Claude Code has run in: each project folder's newest transcript records its `cwd`). Git's files are read
// as text, never by running git: a folder named by a transcript may hold a repository whose config would run
// commands (core.fsmonitor and the like).
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { normaliseGitRemote } from "../core/team/project-identity.ts";
import { transcriptCwd } from "../store/archive/archive-store.ts";
import { openRegularFile } from "../store/files/open-regular.ts";

export interface GitCheckout {
  /** The working tree's top folder (a linked worktree's own folder, not its main repository's). */
  root: string;
  /** Its remotes' URLs normalised, `origin` first. */
  remotes: string[];
}

const MAX_GIT_FILE = 256 * 1024;

/** The git working tree holding `dir`, with its remotes; null outside git or when its files cannot be read. */
export async function readGitCheckout(dir: string): Promise<GitCheckout | null> {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const dotGit = join(current, ".git");
    const info = await stat(dotGit).catch(() => null);
    if (info?.isDirectory()) return { root: current, remotes: await remotesIn(join(dotGit, "config")) };
    if (info?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec((await readSmallFile(dotGit)) ?? "")?.[1]?.trim();
      if (pointer === undefined) return null;
      const gitDir = isAbsolute(pointer) ? pointer : resolve(current, pointer);
      // A linked worktree keeps its config in the main repository's folder (`commondir`).
      const common = (await readSmallFile(join(gitDir, "commondir")))?.trim();
      const configDir = common === undefined || common === "" ? gitDir : resolve(gitDir, common);
      return { root: current, remotes: await remotesIn(join(configDir, "config")) };
    }
    if (dirname(current) === current) return null;
  }
}

async function readSmallFile(path: string): Promise<string | null> {
  const handle = await openRegularFile(path).catch(() => null);
  if (handle === null) return null;
  try {
    const buffer = Buffer.alloc(MAX_GIT_FILE);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** The `url` of every `[remote "…"]` section of a git config file, normalised, `origin` first. */
async function remotesIn(configPath: string): Promise<string[]> {
  return parseGitRemotes((await readSmallFile(configPath)) ?? "");
}

export function parseGitRemotes(config: string): string[] {
  const found: Array<{ name: string; url: string }> = [];
  let remote: string | null = null;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      remote = section[1]?.toLowerCase() === "remote" ? (section[2] ?? null) : null;
      continue;
    }
    if (remote === null) continue;
    const url = /^url\s*=\s*(.*)$/i
      .exec(line)?.[1]
      ?.trim()
      .replace(/^"(.*)"$/, "$1");
    if (url !== undefined) found.push({ name: remote, url });
  }
  found.sort((a, b) => Number(b.name === "origin") - Number(a.name === "origin"));
  return [...new Set(found.map((r) => normaliseGitRemote(r.url)).filter((url): url is string => url !== null))];
}

/** The folders Claude Code has run sessions in: each project folder's newest transcript's `cwd`. */
export async function knownClaudeFolders(claudeDir: string): Promise<string[]> {
  const projectsDir = join(claudeDir, "projects");
  const folders: string[] = [];
  for (const project of await list(projectsDir)) {
    if (!project.isDirectory()) continue;
    const dir = join(projectsDir, project.name);
    let newest: { path: string; mtimeMs: number } | null = null;
    for (const entry of await list(dir)) {
      if (!entry.isFile() || !entry.name.endsWith(".jsonl")) continue;
      const path = join(dir, entry.name);
      const info = await stat(path).catch(() => null);
      if (info !== null && (newest === null || info.mtimeMs > newest.mtimeMs)) newest = { path, mtimeMs: info.mtimeMs };
    }
    const cwd = newest === null ? null : await transcriptCwd(newest.path).catch(() => null);
    if (cwd !== null && isAbsolute(cwd)) folders.push(cwd);
  }
  return folders;
}

async function list(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

/**
 * The first of `folders` (in order) inside a checkout of `remoteUrl` that holds the project's folder `repoPath`:
 * that checkout's root, or null.
 */
export async function findCheckout(
  remoteUrl: string,
  repoPath: string,
  folders: readonly string[],
): Promise<string | null> {
  const seen = new Set<string>();
  for (const folder of folders) {
    const checkout = await readGitCheckout(folder);
    if (checkout === null || seen.has(checkout.root)) continue;
    seen.add(checkout.root);
    if (!checkout.remotes.includes(remoteUrl)) continue;
    if ((await stat(join(checkout.root, repoPath)).catch(() => null))?.isDirectory()) return checkout.root;
  }
  return null;
}
