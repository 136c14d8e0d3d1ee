// What keeps an incremental sync cheap at 100,000 files, pinned at small N over the real fixture transcripts:
// a sync with nothing new opens no transcript and asks the index for each project folder's files once (never for
// every file at once: ./sync-work.ts); a grown file is the only one opened, its folder alone listed again; SessionEnd's `--file` sync lists no folder but its own session's. The file system is the real one, with
// its reads and listings counted (a sync that read every file would still be correct, only slow at scale).

import * as fs from "node:fs";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import * as fsPromises from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FIXTURE,
  LONG_SESSION,
  layOutClaudeDir,
  SPOTTER_PROJECT,
  VIEWER_PROJECT,
  VIEWER_SESSIONS,
} from "../../../tests/helpers/claude-projects.ts";
import { writeTopic } from "../../../tests/helpers/memory-topics.ts";
import { type FolderStamps, IndexWriter, sameStamps } from "../session-index/writer.ts";
import { discoverProject } from "./discover.ts";
import { syncIndex } from "./sync-index.ts";

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return { ...actual, open: vi.fn(actual.open), readFile: vi.fn(actual.readFile), readdir: vi.fn(actual.readdir) };
});
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  return { ...actual, readdirSync: vi.fn(actual.readdirSync) };
});

/** The paths under `root` that the sync opened or read whole, since the last clear. */
function pathsRead(root: string): string[] {
  const calls = [...vi.mocked(fsPromises.open).mock.calls, ...vi.mocked(fsPromises.readFile).mock.calls];
  return calls.map(([path]) => String(path)).filter((path) => path.startsWith(root));
}

/** The folders under `root` that were listed, since the last clear. */
function foldersListed(root: string): string[] {
  const calls = [...vi.mocked(fs.readdirSync).mock.calls, ...vi.mocked(fsPromises.readdir).mock.calls];
  return calls.map(([path]) => String(path)).filter((path) => path.startsWith(root));
}

/** The folders whose files' stamps the sync asked the index for, in order. */
function stampsAskedFor(): string[] {
  return vi.mocked(IndexWriter.prototype.fileStamps).mock.calls.map(([folder]) => folder);
}

/** Every project folder's path, as the sync lists them (by name). */
function projectFolders(claudeDir: string): string[] {
  const projects = join(claudeDir, "projects");
  return fs
    .readdirSync(projects)
    .sort()
    .map((name) => join(projects, name));
}

function setUp() {
  const root = mkdtempSync(join(tmpdir(), "ctx-sync-incremental-"));
  const claudeDir = layOutClaudeDir(root);
  const topic = writeTopic(claudeDir, SPOTTER_PROJECT, "deploy.md", {
    name: "Deploy",
    description: "how the spotter app is deployed",
    content: "Push to main; the pipeline deploys.",
  });
  return { claudeDir, dbPath: join(root, "index.db"), topic };
}

beforeEach(() => {
  vi.spyOn(IndexWriter.prototype, "fileStamps");
  vi.spyOn(IndexWriter.prototype, "getFile");
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

describe("the incremental sync at small N", () => {
  it("with nothing new opens no transcript or topic and asks the index for each folder's files once", async () => {
    const { claudeDir, dbPath } = setUp();
    const first = await syncIndex({ claudeDir, dbPath, thread: false });
    expect(first.filesIngested).toBe(8);
    expect(first.memoryTopics.indexed).toBe(1);
    expect(new Set(pathsRead(claudeDir)).size).toBe(9); // each transcript and the topic
    vi.clearAllMocks();

    const again = await syncIndex({ claudeDir, dbPath, thread: false });
    expect(again).toMatchObject({ filesScanned: 8, filesIngested: 0, filesSkippedUnchanged: 8, sessionsTotal: 7 });
    expect(again.memoryTopics).toEqual({ scanned: 1, indexed: 0, removed: 0 });
    expect(pathsRead(claudeDir)).toEqual([]);
    expect(stampsAskedFor()).toEqual(projectFolders(claudeDir));
    expect(vi.mocked(IndexWriter.prototype.getFile)).not.toHaveBeenCalled();
    // Each folder's indexed files are its files as discovery found them, in the same order: the comparison with
    // nothing new is one pass a folder, not a map of its paths.
    const known = vi.mocked(IndexWriter.prototype.fileStamps).mock.results.map((result) => result.value);
    expect(known.every((stamps) => stamps.paths !== "")).toBe(true);
    const folders = projectFolders(claudeDir);
    expect(known.every((stamps, i) => sameStamps(stamps, discoverProject(claudeDir, basename(folders[i] ?? ""))))).toBe(
      true,
    );
  });

  it("a path with line breaks in its folder and file names is compared like any other, not read again", async () => {
    const { claudeDir, dbPath } = setUp();
    const odd = join(claudeDir, "projects", "-home-dev-line\nbreak");
    fs.mkdirSync(odd);
    fs.copyFileSync(FIXTURE.short, join(odd, "odd\nsession.jsonl"));
    expect((await syncIndex({ claudeDir, dbPath, thread: false })).filesIngested).toBe(9);
    vi.clearAllMocks();
    const again = await syncIndex({ claudeDir, dbPath, thread: false });
    expect(again).toMatchObject({ filesIngested: 0, filesSkippedUnchanged: 9, sessionsTotal: 8 });
    expect(pathsRead(claudeDir)).toEqual([]);
    expect(vi.mocked(IndexWriter.prototype.getFile)).not.toHaveBeenCalled();
  });

  it("sessions whose names sort one way as ids and another as paths are compared by path, not read again", async () => {
    const { claudeDir, dbPath } = setUp();
    // "fix" before "fix-2" as ids, "fix-2.jsonl" before "fix.jsonl" as paths ("-" sorts before "."): no whole match.
    const folder = join(claudeDir, "projects", "-home-dev-sorted");
    fs.mkdirSync(folder);
    fs.copyFileSync(FIXTURE.short, join(folder, "fix.jsonl"));
    fs.copyFileSync(FIXTURE.short, join(folder, "fix-2.jsonl"));
    expect((await syncIndex({ claudeDir, dbPath, thread: false })).filesIngested).toBe(10);
    vi.clearAllMocks();
    const again = await syncIndex({ claudeDir, dbPath, thread: false });
    expect(again).toMatchObject({ filesIngested: 0, filesSkippedUnchanged: 10 });
    expect(pathsRead(claudeDir)).toEqual([]);
    const known = vi.mocked(IndexWriter.prototype.fileStamps).mock.results.map((result) => result.value);
    const sorted = projectFolders(claudeDir).indexOf(folder);
    expect(sameStamps(known[sorted] as FolderStamps, discoverProject(claudeDir, "-home-dev-sorted"))).toBe(false);
  });

  it("opens only the file that grew", async () => {
    const { claudeDir, dbPath } = setUp();
    await syncIndex({ claudeDir, dbPath, thread: false });
    const grown = join(claudeDir, "projects", VIEWER_PROJECT, `${VIEWER_SESSIONS[0]}.jsonl`);
    const lines = readFileSync(FIXTURE.short, "utf8").trim().split("\n");
    appendFileSync(grown, `${lines.slice(0, 2).join("\n")}\n`);
    vi.clearAllMocks();

    const summary = await syncIndex({ claudeDir, dbPath, thread: false });
    expect(summary).toMatchObject({ filesIngested: 1, filesSkippedUnchanged: 7 });
    expect(new Set(pathsRead(claudeDir))).toEqual(new Set([grown]));
    // Every folder compared once; the grown file's folder listed and compared again when its turn came.
    const viewer = join(claudeDir, "projects", VIEWER_PROJECT);
    expect(stampsAskedFor()).toEqual([...projectFolders(claudeDir), viewer]);
    expect(foldersListed(claudeDir).filter((folder) => folder === viewer)).toHaveLength(2);
  });

  it("--file lists only its own session's folders, and indexes that session with its subagent alone", async () => {
    const { claudeDir, dbPath, topic } = setUp();
    const spotter = join(claudeDir, "projects", SPOTTER_PROJECT);
    const main = join(spotter, `${LONG_SESSION}.jsonl`);

    const summary = await syncIndex({ claudeDir, dbPath, thread: false, onlyTranscript: main });
    // The long session's main file and its subagent (not the summariser's), and its project's one memory topic;
    // none of the six other sessions, all new to the index too.
    expect(summary).toMatchObject({ filesScanned: 2, filesIngested: 2, sessionsTotal: 1 });
    expect(summary.memoryTopics).toEqual({ scanned: 1, indexed: 1, removed: 0 });
    expect(foldersListed(claudeDir).sort()).toEqual(
      [join(spotter, LONG_SESSION, "subagents"), join(spotter, "memory")].sort(),
    );
    expect(new Set(pathsRead(claudeDir))).toEqual(
      new Set([main, topic, join(spotter, LONG_SESSION, "subagents", "agent-a2898e3.jsonl")]),
    );
    expect(vi.mocked(IndexWriter.prototype.fileStamps)).not.toHaveBeenCalled();
  });
});
