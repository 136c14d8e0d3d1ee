// Finds the Claude Code transcripts to index under `<claudeDir>/projects/*/`: each session's main file
// (`<session-id>.jsonl`) and its subagents (`<session-id>/subagents/agent-*.jsonl`, attached to the parent session).
// The compaction summariser's own transcripts (`agent-acompact-*`) are never listed: they are not the user's work.
// Unreadable folders, symlinks and stray files are passed over silently; an absent claudeDir gives [].
// Every `ctx index` lists and stats every file (100,000 at the scale docs/performance.md plans for), so a project
// folder is read with synchronous calls (one stat is a few microseconds; each awaited one cost a trip through the
// event loop and the thread pool, 4x as long), and the event loop is given back between folders. A sync takes one
// folder at a time (discoverProject, ./sync-work.ts), so it never holds every file's record.
import { type Dirent, lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { CtxError } from "../../errors.ts";

export interface DiscoveredFile {
  path: string;
  /** The session the file belongs to (a subagent file carries its parent's id). */
  sessionId: string;
  /** The project folder name under projects/ (e.g. `-home-user-app`). */
  project: string;
  kind: "main" | "subagent";
  size: number;
  mtimeMs: number;
}

const JSONL = ".jsonl";
const COMPACTION_AGENT_PREFIX = "agent-acompact-";

/** Every transcript under `<claudeDir>/projects`: by project, then session (its main file before its subagents). */
export async function discoverTranscripts(claudeDir: string): Promise<DiscoveredFile[]> {
  const found: DiscoveredFile[] = [];
  for (const project of listProjectFolders(claudeDir)) {
    found.push(...discoverProject(claudeDir, project));
    await nextTurn(); // a watcher's sync in `ctx serve` shares the event loop with MCP calls
  }
  return found;
}

/** The project folders under `<claudeDir>/projects`, by name ([] when there is none). */
export function listProjectFolders(claudeDir: string): string[] {
  return listDirectory(join(claudeDir, "projects"))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** One project folder's transcripts, as discoverTranscripts lists them (a sync takes them a folder at a time). */
export function discoverProject(claudeDir: string, project: string): DiscoveredFile[] {
  const found: DiscoveredFile[] = [];
  listProject(found, projectFolderPath(claudeDir, project), project);
  return found;
}

/** Where a project folder's files are, as their discovered paths begin (followed by the path separator). */
export function projectFolderPath(claudeDir: string, project: string): string {
  return join(claudeDir, "projects", project);
}

/**
 * One session's files (SessionEnd's `ctx index --file`): the main transcript at `transcriptPath` and its subagents,
 * found without listing any other folder. A path that is not a session's main transcript directly inside a project
 * folder of `<claudeDir>/projects` is refused.
 */
export function discoverSession(claudeDir: string, transcriptPath: string): DiscoveredFile[] {
  const parts = relative(resolve(claudeDir, "projects"), resolve(transcriptPath)).split(sep);
  const [project, name] = parts;
  const sessionId = name?.endsWith(JSONL) === true ? name.slice(0, -JSONL.length) : "";
  // Paths as the whole discovery writes them (from claudeDir as given), so the index knows the file by one path.
  const projectDir = projectFolderPath(claudeDir, project ?? "");
  const found: DiscoveredFile[] = [];
  if (parts.length === 2 && project !== ".." && isMainTranscriptName(sessionId) && isRealFolder(projectDir)) {
    const main = join(projectDir, `${sessionId}${JSONL}`);
    if (statOrNull(main, lstatSync)?.isFile() === true) {
      pushFile(found, main, sessionId, project as string, "main");
    }
  }
  if (found.length === 0) {
    throw new CtxError("NOT_FOUND", `${transcriptPath} is not a transcript under the projects folder`, {
      hint: "give the path of a session's .jsonl file under <claude dir>/projects",
    });
  }
  if (isRealFolder(join(projectDir, sessionId))) {
    pushSubagents(found, join(projectDir, sessionId), sessionId, project as string);
  }
  return found;
}

/** A project folder's sessions, in order: by session id, each main file before its subagents (sorted by path). */
function listProject(found: DiscoveredFile[], projectDir: string, project: string): void {
  const mains = new Set<string>();
  const folders = new Set<string>();
  for (const entry of listDirectory(projectDir)) {
    if (entry.isFile() && entry.name.endsWith(JSONL)) {
      const sessionId = entry.name.slice(0, -JSONL.length);
      if (isMainTranscriptName(sessionId)) mains.add(sessionId);
    } else if (entry.isDirectory()) {
      folders.add(entry.name);
    }
  }
  for (const sessionId of [...new Set([...mains, ...folders])].sort()) {
    if (mains.has(sessionId)) pushFile(found, inFolder(projectDir, `${sessionId}${JSONL}`), sessionId, project, "main");
    if (folders.has(sessionId)) pushSubagents(found, inFolder(projectDir, sessionId), sessionId, project);
  }
}

function isMainTranscriptName(sessionId: string): boolean {
  return sessionId !== "" && !sessionId.startsWith(COMPACTION_AGENT_PREFIX);
}

function pushSubagents(found: DiscoveredFile[], sessionDir: string, sessionId: string, project: string): void {
  const subagentsDir = inFolder(sessionDir, "subagents");
  // Most session folders hold only tool results: a stat that finds nothing is cheaper than a listing that throws.
  if (statOrNull(subagentsDir)?.isDirectory() !== true) return;
  const names = listDirectory(subagentsDir)
    .filter((entry) => entry.isFile() && isSubagentTranscript(entry.name))
    .map((entry) => entry.name)
    .sort();
  for (const name of names) pushFile(found, inFolder(subagentsDir, name), sessionId, project, "subagent");
}

/** `agent-<id>.jsonl`, but never the compaction summariser's `agent-acompact-<hex>.jsonl`. */
export function isSubagentTranscript(name: string): boolean {
  return name.startsWith("agent-") && name.endsWith(JSONL) && !name.startsWith(COMPACTION_AGENT_PREFIX);
}

function pushFile(
  found: DiscoveredFile[],
  path: string,
  sessionId: string,
  project: string,
  kind: DiscoveredFile["kind"],
): void {
  // Null: deleted between the listing and the stat (Claude Code's cleanup sweep), not a transcript any more.
  const info = statOrNull(path);
  if (info === null || !info.isFile()) return;
  found.push({ path, sessionId, project, kind, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) });
}

/** A name from a listing holds no separator: joined by concatenation, not path.join's normalising (per file). */
function inFolder(folder: string, name: string): string {
  return `${folder}${sep}${name}`;
}

/** A folder that is not a symlink, as the listing's `isDirectory()` sees one. */
function isRealFolder(path: string): boolean {
  return statOrNull(path, lstatSync)?.isDirectory() === true;
}

/** The path's stat; null when it is absent or cannot be read (permissions, I/O, a file where a folder was). */
function statOrNull(path: string, statPath: typeof statSync | typeof lstatSync = statSync): Stats | null {
  try {
    return statPath(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** A folder's entries; [] when it is absent, unreadable or not a folder. Symlinks are never followed. */
function listDirectory(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}
