import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { LONG_SESSION, layOutClaudeDir, SPOTTER_PROJECT } from "../../../tests/helpers/claude-projects.ts";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { downgradeToSchema7 } from "../../../tests/helpers/schema-7-index.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { mirrorAnnotations } from "./annotations.ts";
import { databaseOf } from "./database.ts";
import { PAGE_SIZE, SCHEMA_VERSION } from "./schema.ts";
import { openSessionIndex, type SessionIndex } from "./session-index.ts";
import { lastChunkIndex, readSessionChunks, readSourceChunks } from "./stored-rows.ts";
import { ensureVectorTable } from "./vectors.ts";

const QUERIES = ["subagent", "test failing", "jsonl transcript", "flaky retries", "git commit", "viewer"];

/** Everything the index answers that the move from 7 to 8 must not change. */
function reads(index: SessionIndex) {
  const db = databaseOf(index);
  const sessions = (db.prepare("SELECT id FROM sessions ORDER BY id").all() as Array<{ id: string }>).map((r) => r.id);
  const files = (db.prepare("SELECT path FROM files ORDER BY path").all() as Array<{ path: string }>).map(
    (r) => r.path,
  );
  return {
    stats: { ...index.stats(), bytes: 0 },
    // A hit's text is read when first asked for: read here, while the index is open.
    search: QUERIES.map((query) => index.searchChunks(query, {}, 20).map((hit) => ({ ...hit, text: hit.text }))),
    sessions: sessions.map((id) => ({ session: index.getSession(id), chunks: readSessionChunks(index, id) })),
    files: files.map((path) => ({ path, last: lastChunkIndex(index, path), chunks: readSourceChunks(index, path, 1) })),
    chunkIds: db.prepare("SELECT id, session_id, chunk_index FROM chunks ORDER BY id").all(),
    sequence: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").get(),
  };
}

const pragma = (index: SessionIndex, name: string) =>
  Object.values(databaseOf(index).prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

describe("an index of schema 7", () => {
  it("is moved to 8 in place: every read the same, chunk ids and vectors kept, the file rewritten at PAGE_SIZE", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-upgrade-"));
    const claudeDir = layOutClaudeDir(root);
    const long = join(claudeDir, "projects", SPOTTER_PROJECT, `${LONG_SESSION}.jsonl`);
    const lines = readFileSync(long, "utf8").split("\n");
    writeFileSync(long, `${lines.slice(0, 150).join("\n")}\n`);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    let index = openSessionIndex(dbPath);
    // Notes (chunks of no file) on two sessions, then one removed: the sequence is past the largest chunk id. A vector.
    const note = (text: string) => ({ starred: false, labels: [], note: text, updatedAt: 1 });
    mirrorAnnotations(index, { [LONG_SESSION]: note("flaky retries"), short: note("short one") });
    mirrorAnnotations(index, { [LONG_SESSION]: note("flaky retries") });
    ensureVectorTable(databaseOf(index));
    databaseOf(index).exec("INSERT INTO chunk_vectors(chunk_id, model, vector) SELECT id, 'm', x'00' FROM chunks");
    const before = reads(index);
    expect(before.search.flat().length).toBeGreaterThan(20);
    const largest = Math.max(...before.chunkIds.map((row) => Number((row as { id: number }).id)));
    expect((before.sequence as { seq: number }).seq).toBeGreaterThan(largest);
    downgradeToSchema7(databaseOf(index));
    index.close();
    const seven = statsOf(dbPath);
    expect(seven).toMatchObject({ version: "7", pageSize: 4096, source: true });
    expect(seven.notes).toBe(1);
    // A reader cannot move it: it says what does.
    expect(thrownCtxError(() => openSessionIndex(dbPath, { readonly: true }))).toMatchObject({
      code: "STATE_UNSUPPORTED_VERSION",
      hint: expect.stringContaining("in place"),
    });

    index = openSessionIndex(dbPath);
    try {
      expect(index.rebuiltFrom).toBeNull();
      expect(reads(index)).toEqual(before);
      expect(pragma(index, "page_size")).toBe(PAGE_SIZE);
      expect(pragma(index, "journal_mode")).toBe("wal");
      expect(pragma(index, "foreign_keys")).toBe(1);
      const db = databaseOf(index);
      expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
      expect(db.prepare("SELECT count(*) AS n FROM chunks WHERE file_id IS NULL").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
        value: String(SCHEMA_VERSION),
      });
      // The vectors' trigger came back with the table: a deleted chunk takes its vector along.
      const vectors = () => (db.prepare("SELECT count(*) AS n FROM chunk_vectors").get() as { n: number }).n;
      const vectorsBefore = vectors();
      db.exec("DELETE FROM chunks WHERE id = (SELECT min(id) FROM chunks)");
      expect(vectors()).toBe(vectorsBefore - 1);
      expect(index.stats().vectors).toBe(vectorsBefore - 1);
    } finally {
      index.close();
    }

    // Then synced as any index of 8: the grown file re-chunked from its last chunk, as a full read of it cuts it.
    writeFileSync(long, lines.join("\n"));
    const grown = await syncIndex({ claudeDir, dbPath });
    expect(grown.filesIngested).toBe(1);
    const freshPath = join(root, "fresh.db");
    await syncIndex({ claudeDir, dbPath: freshPath });
    const chunksOf = (path: string) => {
      const opened = openSessionIndex(path, { readonly: true });
      try {
        return readSessionChunks(opened, LONG_SESSION).map(({ text, chunkIndex, firstMessage, source }) => ({
          text,
          chunkIndex,
          firstMessage,
          source,
        }));
      } finally {
        opened.close();
      }
    };
    const upgraded = chunksOf(dbPath);
    expect(upgraded.length).toBeGreaterThan(
      before.sessions.find((s) => s.session?.id === LONG_SESSION)?.chunks.length ?? 0,
    );
    expect(upgraded).toEqual(chunksOf(freshPath));
  });

  it("is moved to 8 while another process has it open: the same reads, its page size kept (WAL), synced as any", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-upgrade-"));
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    let index = openSessionIndex(dbPath);
    const before = reads(index);
    downgradeToSchema7(databaseOf(index));
    index.close();
    const other = new DatabaseSync(dbPath, { readOnly: true });
    try {
      other.prepare("SELECT count(*) FROM sessions").get();
      index = openSessionIndex(dbPath);
      try {
        expect(index.rebuiltFrom).toBeNull();
        expect(reads(index)).toEqual(before);
        expect(pragma(index, "page_size")).toBe(4096);
        expect(pragma(index, "journal_mode")).toBe("wal");
      } finally {
        index.close();
      }
      expect((await syncIndex({ claudeDir, dbPath, full: true })).sessionsTotal).toBe(before.sessions.length);
    } finally {
      other.close();
    }
  });

  it("keeps the chunk id sequence when no chunk is left to carry it", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-upgrade-"));
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    let index = openSessionIndex(dbPath);
    databaseOf(index).exec("DELETE FROM chunks_fts; DELETE FROM chunks");
    const sequence = reads(index).sequence as { seq: number };
    expect(sequence.seq).toBeGreaterThan(10);
    downgradeToSchema7(databaseOf(index));
    index.close();
    index = openSessionIndex(dbPath);
    try {
      expect(reads(index).sequence).toEqual(sequence);
    } finally {
      index.close();
    }
  });
});

/** What the file holds, read without ctx (which refuses an index of another version read-only). */
function statsOf(dbPath: string) {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const value = (sql: string) => Object.values(db.prepare(sql).get() as Record<string, unknown>)[0];
    return {
      version: value("SELECT value FROM meta WHERE key = 'schema_version'"),
      pageSize: value("PRAGMA page_size"),
      source: db.prepare("SELECT 1 FROM pragma_table_info('chunks') WHERE name = 'source'").get() !== undefined,
      notes: value("SELECT count(*) FROM chunks WHERE source = 'ctx:library-note'"),
    };
  } finally {
    db.close();
  }
}
