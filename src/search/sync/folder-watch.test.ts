import { type FSWatcher, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inotifyWatchCount } from "../../../tests/helpers/inotify-watches.ts";
import { type FolderWatch, type FolderWatchOptions, watchTranscriptFolders } from "./folder-watch.ts";

let folders: FolderWatch | undefined;
afterEach(() => {
  folders?.close();
  folders = undefined;
});

const onLinux = process.platform === "linux";

/** Polls `check` until it holds (events arrive asynchronously); fails with `what` after a few seconds. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * projects/ with two project folders and 24 transcripts: a session with subagents (2 agents), a session folder
 * holding only tool-results/ (nothing to watch there), and plain sessions. 7 folders, 5 of them worth a watch.
 */
function tree() {
  const root = join(mkdtempSync(join(tmpdir(), "ctx-folder-watch-")), "projects");
  const app = join(root, "-home-me-app");
  const lib = join(root, "-home-me-lib");
  mkdirSync(join(app, "s-agents", "subagents"), { recursive: true });
  mkdirSync(join(app, "s-tools", "tool-results"), { recursive: true });
  mkdirSync(lib, { recursive: true });
  for (let i = 0; i < 10; i++) writeFileSync(join(app, `a${i}.jsonl`), "{}\n");
  for (let i = 0; i < 10; i++) writeFileSync(join(lib, `l${i}.jsonl`), "{}\n");
  writeFileSync(join(app, "s-agents.jsonl"), "{}\n");
  writeFileSync(join(app, "s-tools.jsonl"), "{}\n");
  writeFileSync(join(app, "s-agents", "subagents", "agent-1.jsonl"), "{}\n");
  writeFileSync(join(app, "s-agents", "subagents", "agent-2.jsonl"), "{}\n");
  return { root, app, lib, folderCount: 7, fileCount: 24 };
}

function start(root: string, extra: Partial<Pick<FolderWatchOptions, "watch">> = {}) {
  const seen = { changes: 0, failures: [] as string[] };
  folders = watchTranscriptFolders({
    root,
    onChange: () => seen.changes++,
    onFailure: (path, error) => seen.failures.push(`${path}: ${(error as NodeJS.ErrnoException).code}`),
    rootPollMs: 20,
    ...extra,
  });
  return seen;
}

describe("watchTranscriptFolders", () => {
  it.runIf(onLinux)("holds one inotify watch per folder that can hold transcripts, none per file", async () => {
    const { root, folderCount, fileCount } = tree();
    const before = inotifyWatchCount();
    start(root);
    await folders?.ready;
    // projects/, the two project folders, the session with subagents and its subagents/.
    expect(folders?.folders()).toBe(5);
    const watches = inotifyWatchCount() - before;
    expect(watches).toBe(5);
    expect(watches).toBeLessThanOrEqual(folderCount);
    expect(watches).toBeLessThan(fileCount);
    folders?.close();
    expect(inotifyWatchCount() - before).toBe(0);
  });

  it("reports transcript writes in every watched folder, and nothing else", async () => {
    const { root, app, lib } = tree();
    const seen = start(root);
    await folders?.ready;
    writeFileSync(join(app, "notes.txt"), "not a transcript\n");
    writeFileSync(join(app, "s-agents", "x.json"), "{}");
    writeFileSync(join(app, "s-tools", "tool-results", "out.txt"), "big output");
    // A transcript write afterwards proves the events flow; only it may count.
    writeFileSync(join(lib, "l0.jsonl"), "{}\n{}\n");
    await until("the write in lib", () => seen.changes > 0);
    const afterLib = seen.changes;
    writeFileSync(join(app, "s-agents", "subagents", "agent-1.jsonl"), "{}\n{}\n");
    await until("the subagent's write", () => seen.changes > afterLib);
    expect(seen.failures).toEqual([]);
  });

  it("watches folders created after start: a project, a new session's subagents, a later subagents/", async () => {
    const { root, app } = tree();
    const seen = start(root);
    await folders?.ready;
    const fresh = join(root, "-home-me-new");
    mkdirSync(fresh);
    await until("the new project folder", () => folders?.folders() === 6);
    const beforeWrite = seen.changes;
    writeFileSync(join(fresh, "n1.jsonl"), "{}\n");
    await until("a write in the new project folder", () => seen.changes > beforeWrite);

    // A new session folder is watched at once (its subagents/ may follow), and its subagents/ when it comes.
    mkdirSync(join(fresh, "n1"));
    await until("the new session folder", () => folders?.folders() === 7);
    mkdirSync(join(fresh, "n1", "subagents"));
    await until("the new subagents folder", () => folders?.folders() === 8);
    const beforeAgent = seen.changes;
    writeFileSync(join(fresh, "n1", "subagents", "agent-9.jsonl"), "{}\n");
    await until("the agent's write", () => seen.changes > beforeAgent);

    // s-tools existed unwatched; its subagents/ is found when the session's transcript is next written.
    mkdirSync(join(app, "s-tools", "subagents"));
    writeFileSync(join(app, "s-tools", "subagents", "agent-3.jsonl"), "{}\n");
    writeFileSync(join(app, "s-tools.jsonl"), "{}\n{}\n");
    await until("s-tools and its subagents/", () => folders?.folders() === 10);
    expect(seen.failures).toEqual([]);
  });

  it("drops removed folders and what is below them, and says so", async () => {
    const { root, app } = tree();
    const seen = start(root);
    await folders?.ready;
    const beforeRemove = seen.changes;
    rmSync(app, { recursive: true });
    // projects/ and lib remain.
    await until("the removed project's watches to go", () => folders?.folders() === 2);
    expect(seen.changes).toBeGreaterThan(beforeRemove);
    // A project folder moved in under a new name is a new folder.
    const elsewhere = join(root, "..", "moved");
    mkdirSync(join(elsewhere, "s", "subagents"), { recursive: true });
    renameSync(elsewhere, join(root, "-home-me-moved"));
    await until("the moved-in project and its session", () => folders?.folders() === 5);
  });

  it("waits for a projects/ that does not exist yet, and for one that is removed and made again", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-folder-watch-"));
    const root = join(base, "projects");
    const seen = start(root);
    await folders?.ready;
    expect(folders?.folders()).toBe(0);
    mkdirSync(join(root, "-home-me-app"), { recursive: true });
    // The change is reported once the new root has been read: its folders may be counted a moment before.
    await until("projects/ to be found and reported", () => folders?.folders() === 2 && seen.changes > 0);
    rmSync(root, { recursive: true });
    await until("every watch to go", () => folders?.folders() === 0);
    mkdirSync(join(root, "-home-me-other"), { recursive: true });
    await until("projects/ to be found again", () => folders?.folders() === 2);
    expect(seen.failures).toEqual([]);
  });

  it("reports a folder it cannot watch (ENOSPC past max_user_watches) and watches the rest", async () => {
    const { root, lib } = tree();
    const refuse = (path: string, listener: (event: string, filename: string | null) => void): FSWatcher => {
      if (path === lib)
        throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });
      return watch(path, listener);
    };
    const seen = start(root, { watch: refuse });
    await folders?.ready;
    expect(seen.failures).toEqual([`${lib}: ENOSPC`]);
    expect(folders?.folders()).toBe(4);
  });

  it("watches a folder whose name holds newlines and escape sequences, and never one reached through a link", async () => {
    const { root } = tree();
    const seen = start(root);
    await folders?.ready;
    const hostile = join(root, "-home-me-\n\u001b[31mred\u0007");
    mkdirSync(hostile);
    await until("the hostile folder", () => folders?.folders() === 6);
    const beforeWrite = seen.changes;
    writeFileSync(join(hostile, "h.jsonl"), "{}\n");
    await until("a write in it", () => seen.changes > beforeWrite);
    // A link to a folder outside: the sync passes links over, so no watch goes through it.
    const outside = mkdtempSync(join(tmpdir(), "ctx-folder-watch-outside-"));
    mkdirSync(join(outside, "s", "subagents"), { recursive: true });
    symlinkSync(outside, join(root, "-home-me-link"));
    const afterLink = seen.changes;
    writeFileSync(join(hostile, "h.jsonl"), "{}\n{}\n");
    await until("the write after the link", () => seen.changes > afterLink);
    expect(folders?.folders()).toBe(6);
  });
});
