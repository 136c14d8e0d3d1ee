import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import {
  FIXTURE,
  LONG_SESSION,
  layOutClaudeDir,
  SPOTTER_PROJECT,
  VIEWER_PROJECT,
} from "../../../tests/helpers/claude-projects.ts";
import { databaseOf } from "../session-index/database.ts";
import { vacuumAfterWholeSync } from "../session-index/maintenance.ts";
import { VACUUM_PENDING } from "../session-index/schema.ts";
import { openSessionIndex, WAL_SIZE_LIMIT_BYTES } from "../session-index/session-index.ts";
import { readStoredText } from "../session-index/text-dictionary.ts";
import { syncIndex } from "./sync-index.ts";

function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), "ctx-sync-"));
}

/**
 * Every chunk of the index as comparable rows, by source file and chunk index, with its text as read (the stored
 * bytes depend on when the index made its text dictionary, which the order of the writes decides).
 */
function dumpChunks(dbPath: string): Array<Record<string, unknown>> {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    const db = databaseOf(index);
    const rows = db
      .prepare(
        `SELECT c.session_id, f.path AS source, c.chunk_index, c.first_message, c.last_message, c.text
         FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY f.path, c.chunk_index`,
      )
      .all() as Array<Record<string, unknown>>;
    return rows.map((row) => ({ ...row, text: readStoredText(db, row.text) }));
  } finally {
    index.close();
  }
}

/** A sync aborted once it has read `files` files (it stops between files). */
function syncAbortedAfter(files: number, claudeDir: string, dbPath: string) {
  const controller = new AbortController();
  return syncIndex({
    claudeDir,
    dbPath,
    signal: controller.signal,
    onProgress: (progress) => {
      if (progress.done === files) controller.abort();
    },
  });
}

function ftsMatches(dbPath: string, word: string): number {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    return index.searchChunks(word, {}, 1000).length;
  } finally {
    index.close();
  }
}

/** A Claude dir holding one session file with the given content. */
function singleFile(
  root: string,
  content: string | Buffer,
  kind: "main" | "subagent" = "main",
): { claudeDir: string; file: string } {
  const claudeDir = join(root, "claude");
  const projectDir = join(claudeDir, "projects", "-p");
  rmSync(projectDir, { recursive: true, force: true });
  const dir = kind === "main" ? projectDir : join(projectDir, "sess", "subagents");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, kind === "main" ? "sess.jsonl" : "agent-a1.jsonl");
  writeFileSync(file, content);
  return { claudeDir, file };
}

const VIEWER_LONG = FIXTURE.viewer("fe5e1c67-53e7-4862-81ae-d0e013e3270b");

describe("syncIndex on the real fixture transcripts", () => {
  it("reading in a worker thread builds the same index as reading in this one", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root);
    const inline = join(root, "inline", "index.db");
    const threaded = join(root, "threaded", "index.db");
    const here = await syncIndex({ claudeDir, dbPath: inline, thread: false });
    const there = await syncIndex({ claudeDir, dbPath: threaded, thread: true, batchFiles: 3 });
    expect({ ...there, durationMs: 0 }).toEqual({ ...here, durationMs: 0 });
    expect(dumpChunks(threaded)).toEqual(dumpChunks(inline));
    const sessions = (dbPath: string) => {
      const index = openSessionIndex(dbPath, { readonly: true });
      try {
        return databaseOf(index).prepare("SELECT * FROM sessions ORDER BY id").all();
      } finally {
        index.close();
      }
    };
    expect(sessions(threaded)).toEqual(sessions(inline));
    expect(ftsMatches(threaded, "subagent")).toBe(ftsMatches(inline, "subagent"));
  });

  it("indexes every session, folds the subagent into its parent, never the compaction agent; a second run skips all", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root);
    const dbPath = join(root, "ctx", "index.db");
    const first = await syncIndex({ claudeDir, dbPath });
    expect(first).toMatchObject({ sessionsTotal: 7, filesScanned: 8, filesIngested: 8, interrupted: false });
    expect(first.messages).toBeGreaterThan(300);
    expect(first.chunks).toBeGreaterThan(10);

    const index = openSessionIndex(dbPath, { readonly: true });
    const files = databaseOf(index).prepare("SELECT path, session_id, kind FROM files ORDER BY path").all() as Array<{
      path: string;
      session_id: string;
      kind: string;
    }>;
    expect(files.some((file) => file.path.includes("agent-acompact"))).toBe(false);
    const subagent = files.find((file) => file.kind === "subagent");
    expect(subagent?.session_id).toBe(LONG_SESSION);
    const subagentChunks = databaseOf(index).prepare(
      "SELECT count(*) AS n, min(c.session_id) AS s FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ?",
    );
    expect(subagentChunks.get(subagent?.path ?? "")).toMatchObject({ s: LONG_SESSION });

    const long = index.getSession(LONG_SESSION);
    expect(long).toMatchObject({ project: SPOTTER_PROJECT, gitBranch: "spotter-dov" });
    expect(long?.path.endsWith(`${LONG_SESSION}.jsonl`)).toBe(true);
    expect(long?.cwd).toMatch(/spotter/);
    expect(long?.messageCount).toBeGreaterThan(50);
    expect(long?.createdAt).toBeLessThan(long?.updatedAt ?? 0);
    const viewer = index.getSession("fe5e1c67-53e7-4862-81ae-d0e013e3270b");
    expect(viewer).toMatchObject({ project: VIEWER_PROJECT });
    expect(viewer?.title).not.toBe("");
    expect(index.stats()).toMatchObject({ sessions: 7, projects: 2 });
    expect(index.stats().lastSyncAt).toBeGreaterThan(0);
    index.close();

    const second = await syncIndex({ claudeDir, dbPath });
    expect(second).toMatchObject({ filesIngested: 0, filesSkippedUnchanged: 8, messages: 0, chunks: 0 });
  });

  it("--full re-reads everything and ends with the same chunks", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const before = dumpChunks(dbPath);
    const full = await syncIndex({ claudeDir, dbPath, full: true });
    expect(full.filesIngested).toBe(full.filesScanned);
    expect(dumpChunks(dbPath)).toEqual(before);
  });
});

describe("incremental sync", () => {
  const lines = readFileSync(VIEWER_LONG, "utf8")
    .split("\n")
    .filter((line) => line !== "");

  async function indexOf(content: string, kind: "main" | "subagent" = "main"): Promise<Array<Record<string, unknown>>> {
    const root = tempRoot();
    const { claudeDir } = singleFile(root, content, kind);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    return dumpChunks(dbPath).map(({ source: _source, ...rest }) => rest);
  }

  it("a grown file: only the new part is read, and the chunks equal those of a full read", async () => {
    const root = tempRoot();
    const half = `${lines.slice(0, 120).join("\n")}\n`;
    const { claudeDir, file } = singleFile(root, half);
    const dbPath = join(root, "index.db");
    const first = await syncIndex({ claudeDir, dbPath });
    appendFileSync(file, `${lines.slice(120).join("\n")}\n`);
    const second = await syncIndex({ claudeDir, dbPath });
    expect(second.filesIngested).toBe(1);
    const whole = await indexOf(`${lines.join("\n")}\n`);
    const index = openSessionIndex(dbPath, { readonly: true });
    expect(first.messages + second.messages).toBe(index.getSession("sess")?.messageCount);
    index.close();
    expect(dumpChunks(dbPath).map(({ source: _source, ...rest }) => rest)).toEqual(whole);
    expect(second.chunks).toBe(whole.length - first.chunks);
  });

  it.each([
    ["claude-code-viewer", FIXTURE.viewer("fe5e1c67-53e7-4862-81ae-d0e013e3270b"), 45, "main"],
    ["the long spotter session", FIXTURE.long, 170, "main"],
    ["its subagent", join(FIXTURE.longSubagents, "agent-a2898e3.jsonl"), 20, "subagent"],
  ] as const)("growing %s step by step ends with the chunks of one full read", async (_name, path, step, kind) => {
    const all = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line !== "");
    const root = tempRoot();
    const { claudeDir, file } = singleFile(root, "", kind);
    const dbPath = join(root, "index.db");
    for (let end = step; end < all.length + step; end += step) {
      writeFileSync(file, `${all.slice(0, end).join("\n")}\n`);
      await syncIndex({ claudeDir, dbPath });
    }
    const grown = dumpChunks(dbPath).map(({ source: _source, ...rest }) => rest);
    expect(grown.length).toBeGreaterThan(3);
    expect(grown).toEqual(await indexOf(`${all.join("\n")}\n`, kind));
  });

  it("a partial last line is left for the next run", async () => {
    const root = tempRoot();
    const cut = `${lines.slice(0, 60).join("\n")}\n${(lines[60] ?? "").slice(0, 40)}`;
    const { claudeDir, file } = singleFile(root, cut);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath, { readonly: true });
    const stored = databaseOf(index).prepare("SELECT offset, size FROM files").get() as {
      offset: number;
      size: number;
    };
    index.close();
    expect(stored.offset).toBe(Buffer.byteLength(`${lines.slice(0, 60).join("\n")}\n`));
    expect(stored.size).toBeGreaterThan(stored.offset);
    appendFileSync(file, `${(lines[60] ?? "").slice(40)}\n${lines.slice(61, 100).join("\n")}\n`);
    const second = await syncIndex({ claudeDir, dbPath });
    expect(second.skippedLines).toBe(0);
    expect(dumpChunks(dbPath).map(({ source: _source, ...rest }) => rest)).toEqual(
      await indexOf(`${lines.slice(0, 100).join("\n")}\n`),
    );
  });

  it("a shrunk file loses its old chunks and is read again", async () => {
    const root = tempRoot();
    const { claudeDir, file } = singleFile(root, `${lines.join("\n")}\n`);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const shorter = `${lines.slice(0, 50).join("\n")}\n`;
    truncateSync(file, Buffer.byteLength(shorter));
    await syncIndex({ claudeDir, dbPath });
    expect(dumpChunks(dbPath).map(({ source: _source, ...rest }) => rest)).toEqual(await indexOf(shorter));
  });

  it("a file replaced by another of the same length or longer is read again from the start", async () => {
    const root = tempRoot();
    const original = readFileSync(FIXTURE.toolHeavy, "utf8");
    const { claudeDir, file } = singleFile(root, original);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    expect(ftsMatches(dbPath, "phoenix")).toBeGreaterThan(0);
    const other = readFileSync(VIEWER_LONG, "utf8");
    writeFileSync(file, other);
    await syncIndex({ claudeDir, dbPath });
    expect(dumpChunks(dbPath).map(({ source: _source, ...rest }) => rest)).toEqual(await indexOf(other));
  });

  it("a transcript deleted from disk keeps its rows (fork-detect reports it gone)", async () => {
    const root = tempRoot();
    const { claudeDir, file } = singleFile(root, `${lines.slice(0, 80).join("\n")}\n`);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const before = dumpChunks(dbPath);
    rmSync(file);
    const after = await syncIndex({ claudeDir, dbPath });
    expect(after).toMatchObject({ filesScanned: 0, sessionsTotal: 1 });
    expect(dumpChunks(dbPath)).toEqual(before);
  });
});

describe("interruption and concurrency", () => {
  it("an abort stops between files; the next run resumes and ends where an uninterrupted run would", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    const first = await syncAbortedAfter(2, claudeDir, dbPath);
    expect(first).toMatchObject({ interrupted: true, filesIngested: 2, sessionsTotal: 2 });
    const second = await syncIndex({ claudeDir, dbPath });
    expect(second).toMatchObject({ interrupted: false, filesIngested: 4, filesSkippedUnchanged: 2, sessionsTotal: 6 });

    const reference = join(root, "reference.db");
    await syncIndex({ claudeDir, dbPath: reference });
    expect(dumpChunks(dbPath)).toEqual(dumpChunks(reference));
  });

  it("a reader on another connection sees a consistent, growing index while a sync writes", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root);
    const dbPath = join(root, "index.db");
    openSessionIndex(dbPath).close();
    const reader = openSessionIndex(dbPath, { readonly: true });
    const seen: number[] = [];
    await syncIndex({
      claudeDir,
      dbPath,
      batchFiles: 2,
      onProgress: () => {
        const stats = reader.stats();
        const orphans = databaseOf(reader)
          .prepare("SELECT count(*) AS n FROM chunks WHERE session_id NOT IN (SELECT id FROM sessions)")
          .get() as { n: number };
        expect(orphans.n).toBe(0);
        expect(reader.searchChunks("the", {}, 5).length).toBeGreaterThanOrEqual(0);
        seen.push(stats.chunks);
      },
    });
    reader.close();
    expect(seen.length).toBe(8);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen.at(-1)).toBeGreaterThan(seen[0] ?? 0);
  });
});

describe("the VACUUM after a sync that wrote the whole index", () => {
  const pending = (dbPath: string) => {
    const index = openSessionIndex(dbPath, { readonly: true });
    try {
      return databaseOf(index).prepare("SELECT value FROM meta WHERE key = ?").get(VACUUM_PENDING) !== undefined;
    } finally {
      index.close();
    }
  };

  it("runs once, after the first sync that ends with nothing left to read: not after an abort or one session's", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    const one = join(claudeDir, "projects", SPOTTER_PROJECT, "short.jsonl");
    // SessionEnd's one session is not the whole index.
    expect(await syncIndex({ claudeDir, dbPath, onlyTranscript: one })).toMatchObject({ vacuumed: false });
    expect(pending(dbPath)).toBe(true);
    const aborted = await syncAbortedAfter(2, claudeDir, dbPath);
    expect(aborted).toMatchObject({ interrupted: true, vacuumed: false });
    expect(pending(dbPath)).toBe(true);
    const finished = await syncIndex({ claudeDir, dbPath });
    expect(finished).toMatchObject({ interrupted: false, vacuumed: true });
    expect(pending(dbPath)).toBe(false);
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({ vacuumed: false });
    // Packed, the index reads as the one built in one go.
    const reference = join(root, "reference.db");
    await syncIndex({ claudeDir, dbPath: reference });
    expect(dumpChunks(dbPath)).toEqual(dumpChunks(reference));
  });

  it("runs again after `ctx index --full` writes every chunk again", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({ vacuumed: true });
    expect(await syncIndex({ claudeDir, dbPath, full: true })).toMatchObject({ vacuumed: true });
    expect(pending(dbPath)).toBe(false);
  });

  it("runs again after every file is read by newer rules", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath);
    databaseOf(index).prepare("UPDATE meta SET value = '1' WHERE key = 'read_version'").run();
    index.close();
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({ rereadFromVersion: 1, vacuumed: true });
    expect(pending(dbPath)).toBe(false);
  });

  it("waits for no other writer: the index is kept, and the VACUUM stays pending for the next whole sync", async () => {
    const root = tempRoot();
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    await syncAbortedAfter(1, claudeDir, dbPath);
    const index = openSessionIndex(dbPath);
    const other = new DatabaseSync(dbPath);
    try {
      other.exec("BEGIN IMMEDIATE");
      const started = performance.now();
      expect(vacuumAfterWholeSync(index)).toBe(false);
      expect(performance.now() - started).toBeLessThan(5_000);
      other.exec("ROLLBACK");
      expect(pending(dbPath)).toBe(true);
      expect(index.sessionCount()).toBeGreaterThan(0);
      // A writing connection cuts a large WAL back at its next reset.
      expect(databaseOf(index).prepare("PRAGMA journal_size_limit").get()).toEqual({
        journal_size_limit: WAL_SIZE_LIMIT_BYTES,
      });
      // Its own busy timeout is back: a later write waits for a writer as before.
      expect((databaseOf(index).prepare("PRAGMA busy_timeout").get() as { timeout: number }).timeout).toBeGreaterThan(
        0,
      );
      expect(vacuumAfterWholeSync(index)).toBe(true);
      expect(pending(dbPath)).toBe(false);
    } finally {
      other.close();
      index.close();
    }
  });
});
