// A project's identity across machines: its git remote URL normalised (no scheme, no credentials, no port, no
// `.git`, host in lower case) plus the path inside the repository, so the same repository cloned to different
// folders, or over ssh by one member and https by another, is one project on the team server.

import { hasControlCharacter } from "../text/control-characters.ts";

export interface ProjectIdentity {
  /** `host/owner/repo`, e.g. `github.com/acme/app`. */
  remoteUrl: string;
  /** The project's folder inside the repository, `/`-separated, '' for the repository's root. */
  repoPath: string;
}

/** `git@github.com:acme/app.git`, `https://user:token@github.com/acme/app`, `ssh://git@host:22/acme/app.git`
 *  all become `github.com/acme/app` (host lower-cased; the path's case kept). Null for what is not a remote. */
export function normaliseGitRemote(remote: string): string | null {
  const text = remote.trim();
  if (text === "") return null;
  let host: string;
  let path: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return null;
    }
    if (url.protocol === "file:") return null;
    host = url.hostname;
    path = decodeURIComponent(url.pathname);
  } else if (scp) {
    host = scp[1] as string;
    path = scp[2] as string;
  } else {
    return null;
  }
  host = host.toLowerCase();
  const cleanPath = path
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/")
    .replace(/\.git$/, "");
  if (host === "" || cleanPath === "") return null;
  const normalised = `${host}/${cleanPath}`;
  // A control character names no real repository, and teammates' ctx refuses it (fork-session.ts).
  return hasControlCharacter(normalised) ? null : normalised;
}

/**
 * A project's one name, wherever ctx shows or matches one: the remote's identity, plus `/<path>` for a folder inside
 * the repository (`github.com/acme/app/packages/web`). Search results show it, `--project` matches against it (the
 * team server's query spells the same in SQL: team/search.ts), and the team's commands and forks print it.
 */
export function projectName(project: ProjectIdentity): string {
  return project.repoPath === "" ? project.remoteUrl : `${project.remoteUrl}/${project.repoPath}`;
}

/** The identity of the project at `pathInRepo` (relative to the repository's root, any separator). */
export function projectIdentity(remote: string, pathInRepo: string): ProjectIdentity | null {
  const remoteUrl = normaliseGitRemote(remote);
  return remoteUrl === null ? null : identityOf(remoteUrl, pathInRepo);
}

/** The identity for a remote already normalised (normaliseGitRemote's `host/owner/repo`). */
export function identityOf(remoteUrl: string, pathInRepo: string): ProjectIdentity | null {
  const parts = pathInRepo.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
  const repoPath = parts.join("/");
  // Only what a teammate's ctx will take back (isPlainRepoPath): a folder named with a control character is not shared.
  if (parts.includes("..") || !isPlainRepoPath(repoPath)) return null;
  return { remoteUrl, repoPath };
}

/**
 * Whether a project folder read from the team server (`repo_path`, a teammate's text) is one identityOf could have
 * written: '' or `/`-separated plain names. No `..` or `.` segment, no empty one (so no leading `/`: never absolute),
 * no backslash, no control character. Anything else must never name a folder on this machine (`ctx fork`).
 */
export function isPlainRepoPath(repoPath: string): boolean {
  if (repoPath === "") return true;
  if (repoPath.includes("\\") || hasControlCharacter(repoPath)) return false;
  return repoPath.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}
