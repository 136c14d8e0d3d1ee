import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { putFileRow } from "../../../tests/helpers/index-files.ts";
import { WHOLE_INDEX_CHUNKS } from "../../core/search/bm25-calibration.ts";
import type { ChunkHit, IndexedChunk } from "../../core/search/model.ts";
import { databaseOf } from "./database.ts";
import { emptyIndex, vacuumIndex } from "./maintenance.ts";
import { PAGE_SIZE, SCHEMA_VERSION } from "./schema.ts";
import {
  NEWEST_POSTINGS,
  openSessionIndex,
  POSTINGS_BUDGET,
  planPostings,
  type SessionIndex,
} from "./session-index.ts";
import { ensureVectorTable } from "./vectors.ts";
import { IndexWriter } from "./writer.ts";

function expectCtxError(fn: () => unknown, code: string) {
  const error = thrownCtxError(fn);
  expect(error.code).toBe(code);
  return error;
}

const open: SessionIndex[] = [];
afterEach(() => {
  for (const index of open.splice(0)) index.close();
});

function freshIndex(): { index: SessionIndex; dir: string; path: string } {
  const dir = join(mkdtempSync(join(tmpdir(), "ctx-index-")), "home");
  const path = join(dir, "index.db");
  const index = openSessionIndex(path);
  open.push(index);
  return { index, dir, path };
}

function chunk(sessionId: string, chunkIndex: number, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk {
  return {
    sessionId,
    chunkIndex,
    firstMessage: chunkIndex * 2,
    lastMessage: chunkIndex * 2 + 1,
    text,
    tokenCount: Math.ceil(text.length / 4),
    hasCode: false,
    languages: [],
    memoryType: null,
    ...extra,
  };
}

function addSession(
  index: SessionIndex,
  id: string,
  project: string,
  updatedAt: number,
  texts: string[],
  writer = new IndexWriter(index),
): void {
  writer.ensureSession(id, project, `/t/${id}.jsonl`);
  const file = putFileRow(writer, `/t/${id}.jsonl`, id);
  writer.updateSession({
    id,
    project,
    path: `/t/${id}.jsonl`,
    cwd: "/work",
    gitBranch: "main",
    aiTitle: null,
    firstPrompt: texts[0] ?? null,
    firstTimestamp: updatedAt - 1000,
    lastTimestamp: updatedAt,
  });
  texts.forEach((text, i) => {
    writer.insertChunk(
      chunk(id, i, text, i === 0 ? { languages: ["typescript"], memoryType: "WORKING_SOLUTION" } : {}),
      file,
      i * 100,
      true,
    );
  });
  writer.finishSession(id, updatedAt);
}

describe("opening the session index", () => {
  it("creates the schema in a private folder and file, in WAL mode, with its version recorded", () => {
    const { index, dir, path } = freshIndex();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(databaseOf(index).prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(databaseOf(index).prepare("PRAGMA page_size").get()).toEqual({ page_size: PAGE_SIZE });
    expect(PAGE_SIZE).not.toBe(4096); // SQLite's default: the test below starts from it
    expect(databaseOf(index).prepare("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
    expect(databaseOf(index).prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    expect(index.stats()).toMatchObject({ sessions: 0, chunks: 0, projects: 0, lastSyncAt: null, vectors: 0 });
    expect(index.sessionCount()).toBe(0);
  });

  it("a file that is not SQLite is INDEX_CORRUPT with the reindex hint, and is left as it was", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-index-"));
    const path = join(dir, "index.db");
    const garbage = Buffer.from("this is not a database, just some text that fills more than a header ".repeat(100));
    writeFileSync(path, garbage, { mode: 0o600 });
    for (const readonly of [false, true]) {
      const error = expectCtxError(() => openSessionIndex(path, { readonly }), "INDEX_CORRUPT");
      expect(error.hint).toBe("run `ctx reindex`");
    }
    expect(statSync(path).size).toBe(garbage.length);
  });

  it("read-only: a missing index is NOT_FOUND (run ctx index); another schema version says how to rebuild it", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctx-index-"));
    expect(expectCtxError(() => openSessionIndex(join(dir, "none.db"), { readonly: true }), "NOT_FOUND").hint).toMatch(
      /ctx index/,
    );
    const other = join(dir, "other.db");
    const db = new DatabaseSync(other);
    db.exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema_version', '0')");
    expectCtxError(() => openSessionIndex(other, { readonly: true }), "INDEX_CORRUPT");
    // A real earlier format: the hint is the sync that rebuilds it, not a repair.
    db.exec("UPDATE meta SET value = '4'");
    db.close();
    expect(expectCtxError(() => openSessionIndex(other, { readonly: true }), "STATE_UNSUPPORTED_VERSION").hint).toMatch(
      /ctx index/,
    );
  });

  it("a schema version bump drops and rebuilds the tables when opened for writing", () => {
    const { index, path } = freshIndex();
    addSession(index, "s1", "p", 1_000, ["alpha beta"]);
    databaseOf(index).prepare("UPDATE meta SET value = '0' WHERE key = 'schema_version'").run();
    index.close();
    open.pop();
    const reopened = openSessionIndex(path);
    open.push(reopened);
    expect(reopened.stats()).toMatchObject({ sessions: 0, chunks: 0 });
    expect(reopened.rebuiltFrom).toBe(0);
    reopened.close();
    open.pop();
    const again = openSessionIndex(path);
    open.push(again);
    expect(again.rebuiltFrom).toBeNull();
  });
});

/** An index file as an earlier ctx made it: SQLite's default 4 KiB pages, WAL, 2 MB in a table of schema `version`. */
function oldIndexFile(version: number): string {
  const path = join(mkdtempSync(join(tmpdir(), "ctx-index-")), "index.db");
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema_version', '${version}');
    CREATE TABLE chunks(id INTEGER PRIMARY KEY, text TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
    INSERT INTO chunks(text) SELECT i || hex(randomblob(500)) FROM n;`);
  db.close();
  return path;
}

const pragma = (index: SessionIndex, name: string) =>
  Object.values(databaseOf(index).prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

describe("the index file's page size", () => {
  it("a rebuild from another version rewrites the file at PAGE_SIZE, back in WAL, and it is used as any new one", () => {
    const path = oldIndexFile(4);
    const before = statSync(path).size;
    const index = openSessionIndex(path);
    open.push(index);
    expect(index.rebuiltFrom).toBe(4);
    expect(pragma(index, "page_size")).toBe(PAGE_SIZE);
    expect(pragma(index, "journal_mode")).toBe("wal");
    expect(statSync(path).size).toBeLessThan(before);
    addSession(index, "s1", "p", 1_000, ["alpha beta"]);
    expect(index.searchChunks("alpha", {}, 5).map((hit) => hit.sessionId)).toEqual(["s1"]);
  });

  it("a rebuild while another process has the file open keeps its page size, in WAL, and works", () => {
    const path = oldIndexFile(4);
    const other = new DatabaseSync(path);
    try {
      other.prepare("SELECT count(*) FROM meta").get();
      const index = openSessionIndex(path);
      open.push(index);
      expect(index.rebuiltFrom).toBe(4);
      expect(pragma(index, "page_size")).toBe(4096);
      expect(pragma(index, "journal_mode")).toBe("wal");
      addSession(index, "s1", "p", 1_000, ["alpha beta"]);
      expect(index.searchChunks("alpha", {}, 5).map((hit) => hit.sessionId)).toEqual(["s1"]);
    } finally {
      other.close();
    }
  });

  it("an index of this version keeps its page size; `ctx reindex` (emptied, then vacuumed) rewrites it at PAGE_SIZE", () => {
    const path = oldIndexFile(SCHEMA_VERSION);
    // The right version with an old page size: opened as it is (nothing rebuilt, the page size kept).
    const db = new DatabaseSync(path);
    db.exec("DROP TABLE chunks; DROP TABLE meta");
    db.close();
    const made = openSessionIndex(path);
    expect(pragma(made, "page_size")).toBe(4096);
    made.close();
    const index = openSessionIndex(path);
    open.push(index);
    expect(index.rebuiltFrom).toBeNull();
    expect(pragma(index, "page_size")).toBe(4096);
    addSession(index, "s1", "p", 1_000, ["alpha beta"]);
    emptyIndex(index);
    vacuumIndex(index);
    expect(pragma(index, "page_size")).toBe(PAGE_SIZE);
    expect(pragma(index, "journal_mode")).toBe("wal");
    expect(index.stats()).toMatchObject({ sessions: 0, chunks: 0 });
  });
});

describe("searching chunks", () => {
  it("finds chunks by BM25 with a similarity in 0..1, better matches first", () => {
    const { index } = freshIndex();
    addSession(index, "auth", "p", 5_000, [
      "login token refresh fails with expired jwt token token",
      "unrelated chat about lunch",
    ]);
    addSession(index, "db", "p", 6_000, ["postgres migration adds an index on users", "the login page layout"]);
    const hits = index.searchChunks("jwt token refresh", {}, 10);
    expect(hits[0]).toMatchObject({ sessionId: "auth", chunkIndex: 0, memoryType: "WORKING_SOLUTION" });
    for (const hit of hits) {
      expect(hit.similarity).toBeGreaterThan(0);
      expect(hit.similarity).toBeLessThanOrEqual(1);
    }
    expect(index.searchChunks("postgres", {}, 10).map((hit) => hit.sessionId)).toEqual(["db"]);
    expect(index.searchChunks("nothing matches zebra", {}, 10)).toEqual([]);
  });

  it("reads a hit's text when it is first asked for; a chunk deleted since reads as empty", () => {
    const { index } = freshIndex();
    const long = `postgres migration ${"adds an index on users and ".repeat(20)}`;
    addSession(index, "db", "p", 6_000, [long, "postgres vacuum notes"]);
    const hits = index.searchChunks("postgres", {}, 10);
    expect(hits).toHaveLength(2);
    const [first, second] = hits as [ChunkHit, ChunkHit];
    const texts = new Set([long, "postgres vacuum notes"]);
    expect(texts.has(first.text)).toBe(true);
    const writer = new IndexWriter(index);
    writer.deleteChunks(putFileRow(writer, "/t/db.jsonl", "db"), 0);
    expect(second.text).toBe("");
    // Read once: the first hit keeps the text it read.
    expect(texts.has(first.text)).toBe(true);
  });

  it("scores a small index whole when a term is in half its chunks or more; statistics follow writes", () => {
    const { index, path } = freshIndex();
    addSession(index, "a", "p", 5_000, ["deploy script for staging", "deploy notes"]);
    addSession(index, "b", "p", 6_000, ["deploy the kubernetes operator", "lunch"]);
    // `deploy` is in 3 of 4 chunks: FTS5 would weigh it 0; the smoothed idf counts it a little.
    const both = index.searchChunks("deploy kubernetes", {}, 10);
    expect(both.map((hit) => hit.sessionId)).toEqual(["b", "a", "a"]);
    for (const hit of both) expect(hit.similarity).toBeGreaterThan(0);
    expect((both[0]?.similarity ?? 0) / (both[1]?.similarity ?? 1)).toBeGreaterThan(3);
    expect(index.searchChunks("deploy", {}, 10)).toHaveLength(3);
    expect(index.searchChunks("deploy", { projects: ["elsewhere"] }, 10)).toEqual([]);
    expect(index.searchChunks("deploy kubernetes", {}, 1).map((hit) => hit.sessionId)).toEqual(["b"]);
    // A team server ranks without idf: it is still asked for the discriminating words only (and one the index lacks).
    const model = index.bm25Model("deploy kubernetes helm");
    expect(model.terms).toEqual(["deploi", "kubernet"]);
    expect(model.serverTerms).toEqual(["helm", "kubernet"]);
    const reader = openSessionIndex(path, { readonly: true });
    open.push(reader);
    expect(reader.searchChunks("kubernetes", {}, 10)).toHaveLength(1);
    expect(reader.searchChunks("deploy kubernetes", {}, 10).map((hit) => hit.sessionId)).toEqual(["b", "a", "a"]);
    // Written through this connection and seen by another one: neither keeps stale counts.
    addSession(index, "c", "p", 7_000, ["kubernetes upgrade", "kubernetes rollback", "more lunch", "coffee", "tea"]);
    // Now `deploy` is in 3 of 9 chunks: FTS5 ranks, and the chunk holding both terms comes first.
    const hits = index.searchChunks("deploy kubernetes", {}, 10).map((hit) => hit.sessionId);
    expect(hits[0]).toBe("b");
    expect(hits.sort()).toEqual(["a", "a", "b", "c", "c"]);
    expect(reader.searchChunks("kubernetes", {}, 10)).toHaveLength(3);
  });

  it("in a small history, the words a session is about count though most of the chunks hold them", () => {
    const { index } = freshIndex();
    addSession(index, "hooks", "p", 5_000, [
      "the session start hook writes the session id to a file",
      "commands read the session id the hook recorded",
      "the publish command fails when the session hook never ran",
      "hook output and session id checks in the command",
      "tests for the session id hook",
    ]);
    addSession(index, "poems", "p", 6_000, ["see the curry poem agents", "more poems to see"]);
    // Every word but `see` is in half the chunks or more: FTS5 alone would rank the poems by `see`.
    const hits = index.searchChunks("commands cant see which session they run in, so a hook records the id", {}, 10);
    expect(hits[0]?.sessionId).toBe("hooks");
  });

  it("past WHOLE_INDEX_CHUNKS, leaves out terms in half the chunks or more (idf ~0) but never all of them", () => {
    const { index } = freshIndex();
    const many = Array.from({ length: WHOLE_INDEX_CHUNKS }, (_, i) => (i % 3 === 0 ? `step ${i}` : `deploy step ${i}`));
    addSession(index, "big", "p", 5_000, many);
    addSession(index, "k", "p", 6_000, ["deploy the kubernetes operator"]);
    expect(index.searchChunks("deploy kubernetes", {}, 10).map((hit) => hit.sessionId)).toEqual(["k"]);
    expect(index.searchChunks("deploy", {}, 10)).toHaveLength(10);
  });

  it("treats FTS5 syntax in user text as plain words: quotes, parentheses, NEAR, *, -, column filters, empty", () => {
    const { index } = freshIndex();
    addSession(index, "s", "p", 1_000, ["near the login form", "tokens and stars"]);
    for (const query of [
      '"unbalanced',
      "login)",
      "(login OR",
      "NEAR(login form)",
      "log*",
      "-login",
      "tokens:stars",
      "^login",
      "login AND NOT",
      '""',
      "",
      "   ",
      "{tokens}",
    ]) {
      expect(() => index.searchChunks(query, {}, 5), query).not.toThrow();
    }
    expect(index.searchChunks("", {}, 5)).toEqual([]);
    expect(index.searchChunks("NEAR(login form)", {}, 5).length).toBeGreaterThan(0);
    expect(index.searchChunks("log*", {}, 5)).toEqual([]); // no prefix query: `*` is not syntax
  });

  it("honours project, since/until and tag filters", () => {
    const { index } = freshIndex();
    addSession(index, "a", "proj-a", 1_000, ["deploy script fails"]);
    addSession(index, "b", "proj-b", 9_000, ["deploy pipeline green"]);
    const ids = (filters: Parameters<SessionIndex["searchChunks"]>[1]) =>
      index
        .searchChunks("deploy", filters, 10)
        .map((hit) => hit.sessionId)
        .sort();
    expect(ids({})).toEqual(["a", "b"]);
    expect(ids({ projects: ["proj-b"] })).toEqual(["b"]);
    expect(ids({ projects: [] })).toEqual([]);
    expect(ids({ since: 5_000 })).toEqual(["b"]);
    expect(ids({ until: 5_000 })).toEqual(["a"]);
    expect(ids({ tags: ["typescript", "working-solution"] })).toEqual(["a", "b"]);
    expect(ids({ tags: ["python"] })).toEqual([]);
  });

  it("reads sessions back with derived tags, markers and title", () => {
    const { index } = freshIndex();
    addSession(index, "a", "proj-a", 1_000, ["first prompt text", "more"]);
    expect(index.getSession("a")).toMatchObject({
      id: "a",
      project: "proj-a",
      cwd: "/work",
      gitBranch: "main",
      title: "first prompt text",
      tags: ["typescript", "working-solution"],
      memoryMarkers: ["WORKING_SOLUTION"],
      createdAt: 0,
      updatedAt: 1_000,
    });
    expect(index.getSession("missing")).toBeNull();
    addSession(index, "b", "proj-b", 3_000, ["newer"]);
    expect(index.recentSessions(5).map((session) => session.id)).toEqual(["b", "a"]);
    expect(index.recentSessions(5, { projects: ["proj-a"] }).map((session) => session.id)).toEqual(["a"]);
    expect(index.recentSessions(1)).toHaveLength(1);
    expect(index.chunkCount("a")).toBe(2);
    expect(index.stats()).toMatchObject({ sessions: 2, chunks: 3, projects: 2 });
    expect(index.sessionCount()).toBe(2);
  });

  it("deleting chunks removes their FTS rows and vectors", () => {
    const { index } = freshIndex();
    addSession(index, "a", "p", 1_000, ["alpha words", "beta words"]);
    const writer = new IndexWriter(index);
    // The embedder creates its table after this writer was made.
    ensureVectorTable(databaseOf(index));
    databaseOf(index).exec("INSERT INTO chunk_vectors(chunk_id, model, vector) SELECT id, 'm', x'00' FROM chunks");
    const maxId = () =>
      Number((databaseOf(index).prepare("SELECT max(id) AS id FROM chunks").get() as { id: number }).id);
    const deletedId = maxId();
    writer.deleteChunks(putFileRow(writer, "/t/a.jsonl", "a"), 1);
    expect(index.searchChunks("beta", {}, 5)).toEqual([]);
    expect(index.searchChunks("alpha", {}, 5)).toHaveLength(1);
    expect(index.stats()).toMatchObject({ chunks: 1, vectors: 1 });
    addSession(index, "b", "p", 2_000, ["gamma words"]);
    expect(maxId()).toBeGreaterThan(deletedId); // a deleted chunk's id (and so its vector's key) is never reused
  });

  it("FTS rows held to the end of a batch index what direct writes do, deletes in the batch included", () => {
    const texts = ["alpha deploy notes", "beta kubernetes operator", "gamma deploy rollback", "delta lunch"];
    const ftsOf = (index: SessionIndex) =>
      databaseOf(index).prepare("SELECT term, doc, cnt FROM chunks_vocab ORDER BY term").all();
    const direct = freshIndex().index;
    addSession(direct, "a", "p", 1_000, texts);
    const held = freshIndex().index;
    const writer = new IndexWriter(held);
    held.writeTransaction(() =>
      writer.withFtsAtEnd(() => {
        addSession(held, "a", "p", 1_000, ["replaced before the end", ...texts.slice(1)], writer);
        // Held rows are not in chunks_fts yet: nothing in the batch can find them.
        expect(held.searchChunks("replaced", {}, 5)).toEqual([]);
        // A held row deleted in the batch is forgotten, and a chunk written after it is held in its place.
        const file = putFileRow(writer, "/t/a.jsonl", "a");
        writer.deleteChunks(file, 0);
        texts.forEach((text, i) => {
          writer.insertChunk(chunk("a", i, text), file, i * 100, true);
        });
      }),
    );
    expect(ftsOf(held)).toEqual(ftsOf(direct));
    expect(held.searchChunks("replaced", {}, 5)).toEqual([]);
    // A later batch replaces committed rows (a rewritten file): their FTS rows are deleted, the new ones held.
    const rewritten = ["omega new words", "kubernetes again"];
    const rewrite = (write: IndexWriter) => {
      const file = putFileRow(write, "/t/a.jsonl", "a");
      write.deleteChunks(file, 1);
      rewritten.forEach((text, i) => {
        write.insertChunk(chunk("a", i + 1, text), file, (i + 1) * 100, true);
      });
    };
    direct.writeTransaction(() => rewrite(new IndexWriter(direct)));
    held.writeTransaction(() => writer.withFtsAtEnd(() => rewrite(writer)));
    expect(ftsOf(held)).toEqual(ftsOf(direct));
    expect(held.searchChunks("rollback", {}, 5)).toEqual([]);
    expect(held.searchChunks("kubernetes", {}, 5).map((hit) => hit.text)).toEqual([rewritten[1]]);
    expect(() => databaseOf(held).exec("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")).not.toThrow();
    // A batch that throws writes none of its held rows: its transaction is rolled back, and the next batch is whole.
    expect(() =>
      held.writeTransaction(() =>
        writer.withFtsAtEnd(() => {
          addSession(held, "b", "p", 2_000, ["epsilon lost words"], writer);
          throw new Error("interrupted");
        }),
      ),
    ).toThrow("interrupted");
    expect(held.searchChunks("epsilon", {}, 5)).toEqual([]);
    held.writeTransaction(() =>
      writer.withFtsAtEnd(() => addSession(held, "c", "p", 3_000, ["zeta kept words"], writer)),
    );
    expect(held.searchChunks("zeta", {}, 5).map((hit) => hit.sessionId)).toEqual(["c"]);
    expect(held.stats()).toMatchObject({ chunks: 4 });
    expect(() => databaseOf(held).exec("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")).not.toThrow();
  });
});

describe("what the index says about itself", () => {
  it("lastSyncAt is null before the first sync and the time the last one recorded after", () => {
    const { index } = freshIndex();
    expect(index.lastSyncAt()).toBeNull();
    new IndexWriter(index).setMeta("last_sync_at", "1764000000000");
    expect(index.lastSyncAt()).toBe(1_764_000_000_000);
    expect(index.stats().lastSyncAt).toBe(1_764_000_000_000);
    new IndexWriter(index).setMeta("last_sync_at", "not a time");
    expect(index.lastSyncAt()).toBeNull();
  });

  it("projects lists each indexed project once, sorted", () => {
    const { index } = freshIndex();
    expect(index.projects()).toEqual([]);
    addSession(index, "a", "-work-zeta", 1_000, ["alpha"]);
    addSession(index, "b", "-work-alpha", 2_000, ["beta"]);
    addSession(index, "c", "-work-zeta", 3_000, ["gamma"]);
    expect(index.projects()).toEqual(["-work-alpha", "-work-zeta"]);
  });
});

describe("planPostings: candidates from the rarest terms within the postings budget", () => {
  it("keeps the rarest terms while their postings fit, always at least one", () => {
    expect(planPostings(["common", "rare", "mid"], [39_000, 50, 5_000], 100_000)).toEqual({
      terms: ["rare", "mid"],
      newestPostings: null,
    });
    expect(planPostings(["a", "b"], [10, 20], 100)).toEqual({ terms: ["a", "b"], newestPostings: null });
  });

  it("when even the rarest term is over the budget, reads only its newest postings", () => {
    const plan = planPostings(["x", "y"], [POSTINGS_BUDGET + 1, POSTINGS_BUDGET + 5], 200_000);
    expect(plan).toEqual({ terms: ["x"], newestPostings: NEWEST_POSTINGS });
  });
});
