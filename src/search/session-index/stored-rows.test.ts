import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { putFileRow } from "../../../tests/helpers/index-files.ts";
import type { IndexedChunk } from "../../core/search/model.ts";
import { mirrorAnnotation } from "./annotations.ts";
import { databaseOf } from "./database.ts";
import { openSessionIndex, type SessionIndex } from "./session-index.ts";
import { lastChunkIndex, readSessionChunks, readSourceChunks, readStoredSessions } from "./stored-rows.ts";
import { IndexWriter } from "./writer.ts";

const open: SessionIndex[] = [];
afterEach(() => {
  for (const index of open.splice(0)) index.close();
});

function freshIndex(): SessionIndex {
  const index = openSessionIndex(join(mkdtempSync(join(tmpdir(), "ctx-stored-")), "index.db"));
  open.push(index);
  return index;
}

const MAIN = "/t/a.jsonl";
/** Sorts before MAIN: the main transcript's chunks still come first. */
const AGENT = "/t/a-agents/agent-1.jsonl";
const LONG = "the same words again and again, ".repeat(40);

function chunk(chunkIndex: number, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk {
  return {
    sessionId: "a",
    chunkIndex,
    firstMessage: chunkIndex * 2,
    lastMessage: chunkIndex * 2 + 1,
    text,
    tokenCount: 7,
    hasCode: false,
    languages: [],
    memoryType: null,
    ...extra,
  };
}

function addSessions(index: SessionIndex): void {
  const writer = new IndexWriter(index);
  writer.ensureSession("a", "-p", MAIN);
  writer.updateSession({
    id: "a",
    project: "-p",
    path: MAIN,
    cwd: "/work",
    gitBranch: "main",
    aiTitle: "Fix the bug",
    firstPrompt: null,
    firstTimestamp: 1_000,
    lastTimestamp: 2_000,
  });
  const main = putFileRow(writer, MAIN, "a");
  const agent = putFileRow(writer, AGENT, "a", "subagent");
  writer.insertChunk(chunk(0, "first", { hasCode: true, languages: ["typescript"] }), main, 0, true, undefined, "u0");
  writer.insertChunk(chunk(1, LONG, { memoryType: "WORKING_SOLUTION" }), main, 100, false);
  writer.insertChunk(chunk(2, "third"), main, 200, true, undefined, "u2");
  writer.insertChunk(chunk(0, "agent one"), agent, 0, true);
  writer.insertChunk(chunk(1, "agent two"), agent, 50, true);
  writer.finishSession("a", 3_000);
  // A row the ingest made and has not filled in (no times, no cwd).
  writer.ensureSession("bare", "-p", "/t/bare.jsonl");
}

describe("the index's rows as stored", () => {
  it("reads sessions whole, leaving absent values null, and leaves out ids it does not hold", () => {
    const index = freshIndex();
    addSessions(index);
    const sessions = readStoredSessions(index, ["a", "bare", "nobody"]);
    expect([...sessions.keys()]).toEqual(["a", "bare"]);
    expect(sessions.get("a")).toEqual({
      id: "a",
      cwd: "/work",
      path: MAIN,
      gitBranch: "main",
      createdAt: 1_000,
      updatedAt: 2_000,
      messageCount: 0,
      title: "Fix the bug",
      memoryMarkers: ["WORKING_SOLUTION"],
      labels: [],
      note: null,
    });
    expect(sessions.get("bare")).toMatchObject({ cwd: null, gitBranch: null, createdAt: null, updatedAt: null });
  });

  it("reads a session's labels and note from the library's mirror, and leaves the note's chunk out of its chunks", () => {
    const index = freshIndex();
    addSessions(index);
    const before = readSessionChunks(index, "a").map((c) => c.text);
    mirrorAnnotation(index, "a", { starred: true, labels: ["auth"], note: "the fix", updatedAt: 5 });
    expect(readStoredSessions(index, ["a"]).get("a")).toMatchObject({ labels: ["auth"], note: "the fix" });
    expect(readSessionChunks(index, "a").map((c) => c.text)).toEqual(before);
  });

  it("reads a file's chunks from an index on, its texts unpacked, and its last chunk's index", () => {
    const index = freshIndex();
    addSessions(index);
    const stored = databaseOf(index)
      .prepare("SELECT c.text FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.chunk_index = 1 AND f.path = ?")
      .get(MAIN);
    expect((stored as { text: unknown }).text).toBeInstanceOf(Uint8Array); // deflated in the table
    const chunks = readSourceChunks(index, MAIN, 1);
    expect(chunks.map((c) => c.chunkIndex)).toEqual([1, 2]);
    expect(chunks[0]).toEqual({
      sessionId: "a",
      source: MAIN,
      chunkIndex: 1,
      startOffset: 100,
      firstMessage: 2,
      lastMessage: 3,
      text: LONG,
      tokenCount: 7,
      hasCode: false,
      languages: [],
      memoryType: "WORKING_SOLUTION",
      startsExchange: false,
      lastUuid: null,
    });
    expect(readSourceChunks(index, MAIN)[0]).toMatchObject({
      hasCode: true,
      languages: ["typescript"],
      lastUuid: "u0",
    });
    expect(lastChunkIndex(index, MAIN)).toBe(2);
    expect(lastChunkIndex(index, AGENT)).toBe(1);
    expect(lastChunkIndex(index, "/t/none.jsonl")).toBeNull();
    expect(readSourceChunks(index, "/t/none.jsonl")).toEqual([]);
  });

  it("stores a chunk's last uuid as its 16 bytes and reads back the string, and reads an older index's text as it is", () => {
    const index = freshIndex();
    addSessions(index);
    const uuid = "7c1d9e2a-5b3f-4e8d-a6c0-19f2e4b7d358";
    const writer = new IndexWriter(index);
    writer.insertChunk(chunk(3, "the parser fix"), putFileRow(writer, "/t/b.jsonl", "a"), 0, true, undefined, uuid);
    const db = databaseOf(index);
    const stored = db.prepare("SELECT last_uuid FROM chunks WHERE chunk_index = 3").get() as { last_uuid: unknown };
    expect(stored.last_uuid).toBeInstanceOf(Uint8Array);
    expect((stored.last_uuid as Uint8Array).length).toBe(16);
    expect(readSourceChunks(index, "/t/b.jsonl")[0]?.lastUuid).toBe(uuid);
    expect(index.searchChunks("parser", {}, 5).map((hit) => hit.lastUuid)).toEqual([uuid]);
    // An index written before kept the text.
    db.prepare("UPDATE chunks SET last_uuid = ? WHERE chunk_index = 3").run(uuid);
    expect(readSourceChunks(index, "/t/b.jsonl")[0]?.lastUuid).toBe(uuid);
    expect(index.searchChunks("parser", {}, 5).map((hit) => hit.lastUuid)).toEqual([uuid]);
    expect(readSourceChunks(index, MAIN)[0]?.lastUuid).toBe("u0");
  });

  it("reads a session's chunks in order, the main transcript's first, at most `limit`", () => {
    const index = freshIndex();
    addSessions(index);
    const order = (limit?: number) =>
      readSessionChunks(index, "a", limit).map((c) => `${c.source === MAIN ? "main" : "agent"}:${c.chunkIndex}`);
    expect(order()).toEqual(["main:0", "main:1", "main:2", "agent:0", "agent:1"]);
    expect(order(2)).toEqual(["main:0", "main:1"]);
    expect(order(0)).toEqual([]);
    expect(readSessionChunks(index, "nobody")).toEqual([]);
  });
});
