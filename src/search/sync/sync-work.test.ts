// A sync takes the transcripts a project folder at a time (./sync-work.ts), pinned at small N over the real fixture
// transcripts with real SQLite: each folder's files are written before the next folder is listed for its files (so
// the main thread never holds every file's record), the progress total is known from the first file, a file that
// appears meanwhile is read in the same run, and a sync stopped between folders is finished by the next one.
// The file system is the real one, its project folder listings observed.
import * as fs from "node:fs";
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FIXTURE, layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import { databaseOf } from "../session-index/database.ts";
import { openSessionIndex } from "../session-index/session-index.ts";
import { type SyncProgress, syncIndex } from "./sync-index.ts";

vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  return { ...actual, readdirSync: vi.fn(actual.readdirSync) };
});

afterEach(() => {
  vi.mocked(fs.readdirSync).mockReset();
});

/** The fixture layout (two project folders, 8 files) and a third folder with one session: 9 files. */
function setUp() {
  const root = mkdtempSync(join(tmpdir(), "ctx-sync-work-"));
  const claudeDir = layOutClaudeDir(root);
  const third = join(claudeDir, "projects", "-home-dev-third");
  mkdirSync(third);
  copyFileSync(FIXTURE.toolHeavy, join(third, "third.jsonl"));
  const projects = join(claudeDir, "projects");
  return { claudeDir, projects, dbPath: join(root, "index.db"), folders: fs.readdirSync(projects).sort() };
}

/** The transcripts the index holds now, by path, read through a connection of its own ([] before it exists). */
function indexedPaths(dbPath: string): string[] {
  if (!fs.existsSync(dbPath)) return [];
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    const rows = databaseOf(index).prepare("SELECT path FROM files ORDER BY path").all() as Array<{ path: string }>;
    return rows.map((row) => row.path);
  } finally {
    index.close();
  }
}

/** Calls `onListed` with each project folder's name as the sync lists it (before its entries are read). */
function observeProjectListings(projects: string, onListed: (folder: string) => void): void {
  const real = vi.mocked(fs.readdirSync).getMockImplementation() as (...args: unknown[]) => unknown;
  vi.mocked(fs.readdirSync).mockImplementation(((path: fs.PathLike, options?: unknown) => {
    if (dirname(String(path)) === projects) onListed(String(path).slice(projects.length + 1));
    return real(path, options);
  }) as typeof fs.readdirSync);
}

describe("a sync a project folder at a time", () => {
  it("writes each folder's files before it lists the next folder for its files, the total known from the start", async () => {
    const { claudeDir, projects, dbPath, folders } = setUp();
    const listings: Array<{ folder: string; indexed: string[] }> = [];
    observeProjectListings(projects, (folder) => listings.push({ folder, indexed: indexedPaths(dbPath) }));
    const progress: SyncProgress[] = [];
    const summary = await syncIndex({
      claudeDir,
      dbPath,
      thread: false,
      batchFiles: 1,
      onProgress: (p) => progress.push(p),
    });
    expect(summary).toMatchObject({ filesScanned: 9, filesIngested: 9, interrupted: false });

    const inFolder = (folder: string) =>
      indexedPaths(dbPath).filter((path) => path.startsWith(`${join(projects, folder)}${sep}`));
    const [a, b, c] = folders as [string, string, string];
    expect(listings.map((listing) => listing.folder)).toEqual([a, b, c, a, b, c]);
    // The first listing of every folder (the counts) reads nothing; the second of each finds the earlier folders'
    // files written, and none of its own or later ones.
    expect(listings.map((listing) => listing.indexed)).toEqual([
      [],
      [],
      [],
      [],
      inFolder(a),
      [...inFolder(a), ...inFolder(b)].sort(),
    ]);
    expect(progress.map((p) => [p.done, p.total])).toEqual(Array.from({ length: 9 }, (_, i) => [i + 1, 9]));
  });

  it("reads a file that appeared in a later folder after the first listing, the total growing with it", async () => {
    const { claudeDir, projects, dbPath, folders } = setUp();
    const [a, , c] = folders as [string, string, string];
    const late = join(projects, c, "late.jsonl");
    let listedA = 0;
    observeProjectListings(projects, (folder) => {
      if (folder === a && ++listedA === 2) copyFileSync(FIXTURE.short, late);
    });
    const progress: SyncProgress[] = [];
    const summary = await syncIndex({ claudeDir, dbPath, thread: false, onProgress: (p) => progress.push(p) });
    expect(summary).toMatchObject({ filesIngested: 10, interrupted: false });
    expect(indexedPaths(dbPath)).toContain(late);
    expect(progress.at(-1)).toMatchObject({ done: 10, total: 10 });
    expect(progress.every((p) => p.done <= p.total)).toBe(true);
  });

  it("stopped between folders, leaves the earlier folders written, and the next sync ends where one run ends", async () => {
    const { claudeDir, projects, dbPath, folders } = setUp();
    const [a, b] = folders as [string, string, string];
    const controller = new AbortController();
    let listedB = 0;
    observeProjectListings(projects, (folder) => {
      if (folder === b && ++listedB === 2) controller.abort();
    });
    const stopped = await syncIndex({ claudeDir, dbPath, thread: false, signal: controller.signal });
    expect(stopped.interrupted).toBe(true);
    const atStop = indexedPaths(dbPath);
    expect(atStop.length).toBeGreaterThan(0);
    expect(atStop.every((path) => path.startsWith(`${join(projects, a)}${sep}`))).toBe(true);

    vi.mocked(fs.readdirSync).mockReset();
    const resumed = await syncIndex({ claudeDir, dbPath, thread: false });
    expect(resumed).toMatchObject({ filesIngested: 9 - atStop.length, filesSkippedUnchanged: atStop.length });
    const once = join(dirname(dbPath), "once.db");
    await syncIndex({ claudeDir, dbPath: once, thread: false });
    expect(indexedPaths(dbPath)).toEqual(indexedPaths(once));
    const sessions = (path: string) => {
      const index = openSessionIndex(path, { readonly: true });
      try {
        return databaseOf(index).prepare("SELECT * FROM sessions ORDER BY id").all();
      } finally {
        index.close();
      }
    };
    expect(sessions(dbPath)).toEqual(sessions(once));
  });
});
