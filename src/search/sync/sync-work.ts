// What a sync has to bring up to date, found one project folder at a time so the main thread never holds every
// transcript's record: a first pass lists each folder, compares its files with the index's stamps for that folder and
// keeps only counts (files and bytes to read: the progress total and ETA, and whether to start reading workers); the
// sync then lists each folder that had work again and takes its changed files, which it lets go before the next
// folder. Holding all 110,000 records of a first index of 100,000 sessions kept the main heap at ~176 MiB for the
// whole run. Listing a folder twice costs a few microseconds per file; a folder with nothing new is listed once.
import { setImmediate as nextTurn } from "node:timers/promises";
import { fileStampOf, type IndexWriter, sameStamps, stampsByPath } from "../session-index/writer.ts";
import { type DiscoveredFile, discoverProject, listProjectFolders, projectFolderPath } from "./discover.ts";
import { isUnchanged } from "./sync-file.ts";

export interface SyncWork {
  /** Transcripts found (changed or not). */
  scanned: number;
  /** Of them, the files to read, and their bytes, as the first listing found them. */
  files: number;
  bytes: number;
  /** The project of SessionEnd's one session (SyncWorkOptions.session); else null. */
  sessionProject: string | null;
  /** The files to read, a project folder at a time, each folder's listed again when it is its turn. */
  folders(): AsyncGenerator<DiscoveredFile[]>;
}

export interface SyncWorkOptions {
  /** Every file is work (a full re-read). */
  full: boolean;
  /** SessionEnd's one session's files (discoverSession's): the work is those that changed, no folder is listed. */
  session?: DiscoveredFile[];
}

export async function findSyncWork(
  writer: IndexWriter,
  claudeDir: string,
  options: SyncWorkOptions,
): Promise<SyncWork> {
  if (options.session !== undefined) return sessionWork(writer, options.session, options.full);
  const withWork: string[] = []; // the project folders with files to read, by name
  const work = { scanned: 0, files: 0, bytes: 0 };
  for (const project of listProjectFolders(claudeDir)) {
    const found = discoverProject(claudeDir, project);
    const changed = changedInFolder(writer, claudeDir, project, found, options.full);
    work.scanned += found.length;
    work.files += changed.length;
    for (const file of changed) work.bytes += file.size;
    if (changed.length > 0) withWork.push(project);
    await nextTurn(); // a watcher's sync in `ctx serve` shares the event loop with MCP calls
  }
  return {
    ...work,
    sessionProject: null,
    async *folders() {
      for (const project of withWork) {
        // What changed since the first listing is taken as it is now (a file grown meanwhile is read to its end).
        const changed = changedInFolder(writer, claudeDir, project, discoverProject(claudeDir, project), options.full);
        if (changed.length > 0) yield orderWork(changed);
      }
    },
  };
}

/** SessionEnd's `--file` sync: one session's few files, looked up one by one. */
function sessionWork(writer: IndexWriter, found: DiscoveredFile[], full: boolean): SyncWork {
  const changed = full ? found : found.filter((file) => !isUnchanged(file, writer.getFile(file.path)));
  return {
    scanned: found.length,
    files: changed.length,
    bytes: changed.reduce((sum, file) => sum + file.size, 0),
    sessionProject: found[0]?.project ?? null,
    async *folders() {
      if (changed.length > 0) yield orderWork(changed);
    },
  };
}

/** The folder's files whose size or mtime differ from what the index holds (or that it does not hold). */
function changedInFolder(
  writer: IndexWriter,
  claudeDir: string,
  project: string,
  found: DiscoveredFile[],
  full: boolean,
): DiscoveredFile[] {
  if (full || found.length === 0) return found;
  const known = writer.fileStamps(projectFolderPath(claudeDir, project));
  // Most folders of a large history have nothing new: the index's files and the folder's, compared whole (discovery's
  // order is the index's path order for Claude Code's names; where it is not, the paths decide).
  if (sameStamps(known, found)) return [];
  const stamps = stampsByPath(known);
  return found.filter((file) => stamps.get(file.path) !== fileStampOf(file));
}

/** Main transcripts before subagent ones, so a session's row comes from its main file first; else by path. */
function orderWork(files: DiscoveredFile[]): DiscoveredFile[] {
  return [...files].sort((a, b) => (a.kind === b.kind ? (a.path < b.path ? -1 : 1) : a.kind === "main" ? -1 : 1));
}
