// An index whose files were read by older rules (schema.ts READ_VERSION) is read again by the syncs of every folder:
// each file from its start, resumably, the index usable meanwhile; SessionEnd's one-session sync leaves it to them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layOutClaudeDir, SPOTTER_PROJECT, VIEWER_SESSIONS } from "../../../tests/helpers/claude-projects.ts";
import { writeTopic } from "../../../tests/helpers/memory-topics.ts";
import { resolveIndexPath } from "../paths.ts";
import { databaseOf } from "../session-index/database.ts";
import { READ_VERSION } from "../session-index/schema.ts";
import { openSessionIndex } from "../session-index/session-index.ts";
import { readStoredText } from "../session-index/text-dictionary.ts";
import { updateLibrary } from "../session-library.ts";
import { syncIndex } from "./sync-index.ts";

/** A Claude folder of real transcripts and its index, built by this ctx; `reference` is what a search reads of it. */
async function builtIndex(options: { withLong?: boolean } = { withLong: false }) {
  const root = mkdtempSync(join(tmpdir(), "ctx-reread-"));
  const claudeDir = layOutClaudeDir(root, options);
  const dbPath = join(root, "index.db");
  const built = await syncIndex({ claudeDir, dbPath });
  return { claudeDir, dbPath, built, reference: dump(dbPath) };
}

/** What a search reads of the index: every chunk's text by file, and every session's row. */
function dump(dbPath: string): { chunks: unknown[]; sessions: unknown[] } {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    const db = databaseOf(index);
    const chunks = db
      .prepare(
        `SELECT f.path, c.chunk_index, c.first_message, c.last_message, c.text, c.last_uuid
         FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY f.path, c.chunk_index`,
      )
      .all()
      .map((row) => ({ ...row, text: readStoredText(db, row.text) }));
    const sessions = db
      .prepare("SELECT id, title, message_count, created_at, updated_at, cwd, root_uuid FROM sessions ORDER BY id")
      .all();
    return { chunks, sessions };
  } finally {
    index.close();
  }
}

/** Makes the index look as one read by rules before READ_VERSION: no `read_version`, and a title they gave. */
function readByOlderRules(dbPath: string, staleTitle: string): void {
  const index = openSessionIndex(dbPath);
  try {
    const db = databaseOf(index);
    db.exec("DELETE FROM meta WHERE key = 'read_version'");
    db.prepare("UPDATE sessions SET ai_title = ?").run(staleTitle);
  } finally {
    index.close();
  }
}

function readVersionOf(dbPath: string): string | null {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    const row = databaseOf(index).prepare("SELECT value FROM meta WHERE key = 'read_version'").get() as
      | { value: string }
      | undefined;
    return row?.value ?? null;
  } finally {
    index.close();
  }
}

describe("reading again by newer rules", () => {
  it("a new index records the rules it was read by, and is not read again", async () => {
    const { claudeDir, dbPath, built: first } = await builtIndex();
    expect(first.rereadFromVersion).toBeNull();
    expect(readVersionOf(dbPath)).toBe(String(READ_VERSION));
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({ filesIngested: 0, rereadFromVersion: null });
  });

  it("files read by older rules are all read again from their start, once, ending as a new index would", async () => {
    const { claudeDir, dbPath, built, reference } = await builtIndex({ withLong: true });
    readByOlderRules(dbPath, "a title older rules gave");
    expect(dump(dbPath)).not.toEqual(reference);

    const told: number[] = [];
    const reread = await syncIndex({ claudeDir, dbPath, onReread: (from) => told.push(from) });
    expect(told).toEqual([0]);
    expect(reread).toMatchObject({
      rereadFromVersion: 0,
      filesIngested: built.filesScanned,
      filesSkippedUnchanged: 0,
    });
    expect(dump(dbPath)).toEqual(reference);
    expect(readVersionOf(dbPath)).toBe(String(READ_VERSION));
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({ filesIngested: 0, rereadFromVersion: null });
  });

  it("an interrupted read-again is resumed by the next sync, and searches find every session meanwhile", async () => {
    const { claudeDir, dbPath, built, reference } = await builtIndex();
    readByOlderRules(dbPath, "a title older rules gave");

    const controller = new AbortController();
    const first = await syncIndex({
      claudeDir,
      dbPath,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.done === 2) controller.abort();
      },
    });
    expect(first).toMatchObject({ interrupted: true, filesIngested: 2, rereadFromVersion: 0 });
    // Half read again, half as they were: every session still there.
    expect(dump(dbPath).sessions).toHaveLength(reference.sessions.length);

    const second = await syncIndex({ claudeDir, dbPath });
    expect(second).toMatchObject({
      interrupted: false,
      rereadFromVersion: null,
      filesIngested: built.filesScanned - 2,
      filesSkippedUnchanged: 2,
    });
    expect(dump(dbPath)).toEqual(reference);
  });

  it("a damaged rules number is read as 0 (read again, nothing lost); a newer ctx's number is left alone", async () => {
    const { claudeDir, dbPath, built, reference } = await builtIndex();
    const setVersion = (value: string) => {
      const index = openSessionIndex(dbPath);
      try {
        databaseOf(index).prepare("UPDATE meta SET value = ? WHERE key = 'read_version'").run(value);
      } finally {
        index.close();
      }
    };
    setVersion("not a number");
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({
      rereadFromVersion: 0,
      filesIngested: built.filesScanned,
    });
    expect(dump(dbPath)).toEqual(reference);
    expect(readVersionOf(dbPath)).toBe(String(READ_VERSION));

    setVersion(String(READ_VERSION + 1));
    expect(await syncIndex({ claudeDir, dbPath })).toMatchObject({ rereadFromVersion: null, filesIngested: 0 });
    expect(readVersionOf(dbPath)).toBe(String(READ_VERSION + 1));
  });

  it("SessionEnd's sync of one session leaves the index's other files to the next sync of every folder", async () => {
    const { claudeDir, dbPath, built } = await builtIndex();
    readByOlderRules(dbPath, "a title older rules gave");
    const one = join(claudeDir, "projects", SPOTTER_PROJECT, "short.jsonl");

    const ended = await syncIndex({ claudeDir, dbPath, onlyTranscript: one });
    expect(ended).toMatchObject({ rereadFromVersion: null, filesIngested: 0 });
    expect(readVersionOf(dbPath)).toBeNull();
    const next = await syncIndex({ claudeDir, dbPath });
    expect(next).toMatchObject({ rereadFromVersion: 0, filesIngested: built.filesScanned });
  });

  it("tokens of older rules are all written again: every chunk's, a memory topic's and a note's", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-reread-"));
    const env = { CTX_HOME: join(root, "home") };
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = resolveIndexPath(env);
    writeTopic(claudeDir, SPOTTER_PROJECT, "palette.md", {
      name: "palette",
      description: "the colour scheme",
      content: "we dont ship the grey theme",
    });
    await syncIndex({ claudeDir, dbPath, libraryEnv: env });
    const noted = VIEWER_SESSIONS[0];
    await updateLibrary({ env, now: () => new Date(2_000) }, noted, { op: "note", note: "my favourite colour picker" });
    const terms = ["color", "colour", "favorit", "don", "gray", "session", "stale"];
    /** How many rows of each full-text table hold each term (contentless: its tokens are seen only by MATCH). */
    const counts = () => {
      const index = openSessionIndex(dbPath, { readonly: true });
      try {
        const db = databaseOf(index);
        const count = (table: string, term: string) =>
          (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(`"${term}"`) as { n: number }).n;
        return terms.map((term) => [term, count("chunks_fts", term), count("memory_topics_fts", term)]);
      } finally {
        index.close();
      }
    };
    const fresh = counts();
    expect(fresh).toContainEqual(["color", 1, 1]); // the note's chunk, the topic
    expect(fresh).toContainEqual(["colour", 0, 0]);
    expect(fresh).toContainEqual(["stale", 0, 0]);

    // Older rules' tokens: every row of both tables holds "stale" instead of what these rules give.
    const index = openSessionIndex(dbPath);
    try {
      const db = databaseOf(index);
      for (const [table, rows] of [
        ["chunks_fts", "SELECT id FROM chunks"],
        ["memory_topics_fts", "SELECT id FROM memory_topics"],
      ] as const) {
        for (const { id } of db.prepare(rows).all() as { id: number }[]) {
          db.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(id);
          db.prepare(`INSERT INTO ${table}(rowid, tokens) VALUES (?, 'stale')`).run(id);
        }
      }
    } finally {
      index.close();
    }
    readByOlderRules(dbPath, "a title older rules gave");
    expect(counts()).not.toEqual(fresh);

    const reread = await syncIndex({ claudeDir, dbPath, libraryEnv: env });
    expect(reread).toMatchObject({ rereadFromVersion: 0, memoryTopics: { indexed: 1 }, annotations: { written: 1 } });
    expect(counts()).toEqual(fresh);
  });
});
