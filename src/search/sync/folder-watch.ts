// Folder-level watching of Claude Code's projects/ tree for the background indexer: one inotify watch per folder a
// transcript can land in (projects/, each project folder, a session folder that has subagents/ or appeared while
// watching, and that subagents/ folder), never one per file, and no state per file: an inotify watch on a folder
// reports writes to the files in it. With 100,000 sessions that is about a thousand watches, where a watch per file
// would take most of the kernel's max_user_watches. New folders are watched as they appear, gone ones dropped; the
// index sync itself finds every file (discover.ts), so an event only has to say "something changed".
import { type FSWatcher, watch as fsWatch } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { basename, join, sep } from "node:path";

type Level = "projects" | "project" | "session" | "subagents";
type WatchFolder = (path: string, listener: (event: string, filename: string | null) => void) => FSWatcher;

export interface FolderWatchOptions {
  /** `<claudeDir>/projects`; watched once it exists. */
  root: string;
  /** A transcript was written, added or removed, or a folder that holds them appeared or went. */
  onChange: () => void;
  /** A folder could not be watched (ENOSPC past max_user_watches, EACCES, …): its changes may go unseen. */
  onFailure: (path: string, error: unknown) => void;
  /** How often to look for a root that does not exist yet. */
  rootPollMs?: number;
  /** node:fs watch; a test injects failures here. */
  watch?: WatchFolder;
}

export interface FolderWatch {
  /** Settles when the folders that exist have their watches (or the root is found absent). */
  readonly ready: Promise<void>;
  /** The folders watched now. */
  folders(): number;
  close(): void;
}

const JSONL = ".jsonl";
const SUBAGENTS = "subagents";
/** Project folders scanned at once at start-up: enough to overlap the reads, few enough not to crowd the event loop. */
const SCAN_BATCH = 16;

export function watchTranscriptFolders(options: FolderWatchOptions): FolderWatch {
  const watchFolder: WatchFolder = options.watch ?? ((path, listener) => fsWatch(path, listener));
  const watched = new Map<string, FSWatcher>();
  let closed = false;
  let rootTimer: NodeJS.Timeout | undefined;

  /** Watches `path` (before its entries are read, so nothing created meanwhile is missed); false if it cannot. */
  function add(path: string, level: Level): boolean {
    if (closed) return false;
    if (watched.has(path)) return true;
    let watcher: FSWatcher;
    try {
      watcher = watchFolder(path, (_event, filename) => void onEvent(path, level, filename));
    } catch (error) {
      if (errorCode(error) !== "ENOENT" && errorCode(error) !== "ENOTDIR") options.onFailure(path, error);
      return false;
    }
    watcher.on("error", (error) => {
      drop(path);
      if (errorCode(error) !== "ENOENT") options.onFailure(path, error);
    });
    watched.set(path, watcher);
    return true;
  }

  /** Stops watching `path` and every folder below it. */
  function drop(path: string): void {
    for (const [folder, watcher] of watched) {
      if (folder === path || folder.startsWith(path + sep)) {
        watcher.close();
        watched.delete(folder);
      }
    }
  }

  async function onEvent(folder: string, level: Level, filename: string | null): Promise<void> {
    if (closed) return;
    if (filename === null) return options.onChange();
    if (filename === basename(folder) && !(await isFolder(folder, folder === options.root))) {
      // The watched folder itself went (inotify names it): its parent's event drops it too, but the root has none.
      drop(folder);
      options.onChange();
      if (folder === options.root) awaitRoot();
      return;
    }
    const path = join(folder, filename);
    if (level === "projects") return onChild(path, "project");
    if (level === "project" && filename.endsWith(JSONL)) {
      options.onChange();
      // A session's subagents/ may have appeared in a folder that existed, unwatched, before: its transcript's
      // writes (the Task call, the agent's progress) say when to look.
      const sessionFolder = path.slice(0, -JSONL.length);
      if (!watched.has(sessionFolder) && (await isFolder(join(sessionFolder, SUBAGENTS)))) {
        await addSession(sessionFolder);
        options.onChange();
      }
      return;
    }
    if (level === "project") return onChild(path, "session");
    if (level === "session" && filename === SUBAGENTS) return onChild(path, "subagents");
    if (level === "subagents" && filename.endsWith(JSONL)) options.onChange();
  }

  /** A folder entry appeared or went: watch it (and what it holds) or drop it, then let the sync look. */
  async function onChild(path: string, level: Level): Promise<void> {
    if (!(await isFolder(path))) {
      if (watched.has(path)) {
        drop(path);
        options.onChange();
      }
      return;
    }
    if (watched.has(path)) return;
    if (level === "project") await addProject(path);
    else if (level === "session") await addSession(path);
    else add(path, level);
    // Files written into it before its watch was in place are found by this sync.
    options.onChange();
  }

  async function addProject(path: string): Promise<void> {
    if (!add(path, "project")) return;
    for (const entry of await listFolders(path)) {
      if (await isFolder(join(path, entry, SUBAGENTS))) await addSession(join(path, entry));
    }
  }

  async function addSession(path: string): Promise<void> {
    if (!add(path, "session")) return;
    if (await isFolder(join(path, SUBAGENTS))) add(join(path, SUBAGENTS), "subagents");
  }

  async function start(): Promise<void> {
    if (!add(options.root, "projects")) {
      // Absent: look for it now and then. Present but not watchable: reported, and the caller's periodic sync covers it.
      if (!(await isFolder(options.root, true))) awaitRoot();
      return;
    }
    const projects = await listFolders(options.root);
    for (let i = 0; i < projects.length && !closed; i += SCAN_BATCH) {
      await Promise.all(projects.slice(i, i + SCAN_BATCH).map((name) => addProject(join(options.root, name))));
    }
  }

  /** The root is absent: look again now and then, and start (with a sync) once it is there. */
  function awaitRoot(): void {
    if (closed || rootTimer !== undefined) return;
    rootTimer = setInterval(() => {
      void isFolder(options.root, true).then((present) => {
        if (!present || closed || rootTimer === undefined) return;
        clearInterval(rootTimer);
        rootTimer = undefined;
        void start().then(options.onChange);
      });
    }, options.rootPollMs ?? 2_000);
    rootTimer.unref();
  }

  return {
    ready: start(),
    folders: () => watched.size,
    close() {
      closed = true;
      clearInterval(rootTimer);
      for (const watcher of watched.values()) watcher.close();
      watched.clear();
    },
  };
}

/** The names of the folders in `path` (links are not followed); [] when it is absent or unreadable. */
async function listFolders(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * A folder, not a link to one: the sync passes links below projects/ over (discover.ts), so watching through one
 * would be wasted. projects/ itself may be a link (a moved ~/.claude): `follow` for it.
 */
async function isFolder(path: string, follow = false): Promise<boolean> {
  try {
    return (await (follow ? stat(path) : lstat(path))).isDirectory();
  } catch {
    return false;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
