import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LONG_SESSION, layOutClaudeDir, SPOTTER_PROJECT } from "../../../tests/helpers/claude-projects.ts";
import { withIndex } from "../../../tests/helpers/open-index.ts";
import { applyPreparedFile, planFile, readFileContent } from "../sync/sync-file.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { dictionaryIdOf } from "./chunk-text.ts";
import { databaseOf } from "./database.ts";
import { emptyIndex } from "./maintenance.ts";
import { openSessionIndex, type SessionIndex } from "./session-index.ts";
import { readSessionChunks, readSourceChunks } from "./stored-rows.ts";
import { dictionaryFrom, readStoredText, TEXT_DICTIONARY_BYTES, textDictionaryOf } from "./text-dictionary.ts";
import { IndexWriter } from "./writer.ts";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setUp(): { claudeDir: string; dbPath: (name: string) => string } {
  const root = mkdtempSync(join(tmpdir(), "ctx-dictionary-"));
  roots.push(root);
  return { claudeDir: layOutClaudeDir(root), dbPath: (name) => join(root, `${name}.db`) };
}

/** Every session's chunk texts as read, and how many of the chunks are packed with the dictionary. */
function readAll(index: SessionIndex): { texts: Record<string, string[]>; withDictionary: number } {
  const db = databaseOf(index);
  const ids = (db.prepare("SELECT id FROM sessions ORDER BY id").all() as Array<{ id: string }>).map((row) => row.id);
  const texts = Object.fromEntries(ids.map((id) => [id, readSessionChunks(index, id).map((chunk) => chunk.text)]));
  const stored = db.prepare("SELECT text FROM chunks").all() as Array<{ text: unknown }>;
  return { texts, withDictionary: stored.filter((row) => dictionaryIdOf(row.text) !== null).length };
}

const otherDictionary = () => Buffer.from("Assistant: a dictionary of other words. ".repeat(1_000)).subarray(0, 32_768);

describe("the session index's text dictionary", () => {
  it("is made once the index holds 32 KiB of chunk text; the chunks after it are packed with it and read the same", async () => {
    const { claudeDir, dbPath } = setUp();
    // Batches of many files: the dictionary comes later, and more chunks are deflated alone.
    await syncIndex({ claudeDir, dbPath: dbPath("alone"), thread: false });
    await syncIndex({ claudeDir, dbPath: dbPath("packed"), thread: false, batchFiles: 1 });
    const alone = withIndex(dbPath("alone"), readAll);
    const packed = withIndex(dbPath("packed"), readAll);
    expect(alone.withDictionary).toBeLessThan(packed.withDictionary);
    expect(packed.withDictionary).toBeGreaterThan(10);
    expect(packed.texts).toEqual(alone.texts);
    withIndex(dbPath("packed"), (index) => {
      expect(textDictionaryOf(databaseOf(index))?.bytes.length).toBe(TEXT_DICTIONARY_BYTES);
    });
    const size = (name: string) =>
      withIndex(dbPath(name), (index) => {
        const row = databaseOf(index).prepare("SELECT sum(length(text)) AS n FROM chunks").get() as { n: number };
        return row.n;
      });
    expect(size("packed")).toBeLessThan(size("alone"));
  });

  it("is made of a slice of each of the chunks spread over the index's first ones, not of the first chunks alone", async () => {
    const { claudeDir, dbPath } = setUp();
    const path = dbPath("index");
    await syncIndex({ claudeDir, dbPath: path, thread: false });
    withIndex(path, (index) => {
      const db = databaseOf(index);
      const dictionary = Buffer.from(textDictionaryOf(db)?.bytes ?? new Uint8Array());
      expect(dictionary.length).toBe(TEXT_DICTIONARY_BYTES);
      // The chunks the index held when it was made: those written before it, not packed with it.
      const rows = db.prepare("SELECT text FROM chunks WHERE chunk_index >= 0 ORDER BY id").all() as Array<{
        text: unknown;
      }>;
      const first = rows.filter((row) => dictionaryIdOf(row.text) === null);
      const texts = first.map((row) => Buffer.from(readStoredText(db, row.text)));
      // Made from the first 32 KiB of their text, it could not have reached the last of them.
      expect(Buffer.concat(texts.slice(0, -1)).length).toBeGreaterThan(TEXT_DICTIONARY_BYTES);
      const openings = texts.map((text) => text.subarray(0, 64)).filter((opening) => opening.length === 64);
      expect(openings.length).toBeGreaterThan(20);
      // Fewer than 64 chunks: every one of them opens a slice.
      for (const opening of openings) expect(dictionary.includes(opening)).toBe(true);
    });
  });

  it("fills 32 KiB a slice of each text at a time, from few or short texts too, and is not made from less", () => {
    const texts = ["a", "b", "c"].map((letter) => new TextEncoder().encode(letter.repeat(20_000)));
    const made = Buffer.from(dictionaryFrom(texts) ?? new Uint8Array());
    expect(made.length).toBe(TEXT_DICTIONARY_BYTES);
    // 512 bytes of each in turn: a, b, c, a, b, c, …
    expect(made.subarray(0, 1_536).toString()).toBe(`${"a".repeat(512)}${"b".repeat(512)}${"c".repeat(512)}`);
    expect(made.subarray(1_536, 2_048).toString()).toBe("a".repeat(512));
    const counts = ["a", "b", "c"].map((letter) => made.toString().split(letter).length - 1);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(512);
    // Short texts: the next slice of a longer one fills the place of a shorter one that has run out.
    const mixed = [new Uint8Array(100).fill(1), new Uint8Array(40_000).fill(2)];
    const fromMixed = dictionaryFrom(mixed) ?? new Uint8Array();
    expect(fromMixed.filter((byte) => byte === 1).length).toBe(100);
    expect(fromMixed.filter((byte) => byte === 2).length).toBe(TEXT_DICTIONARY_BYTES - 100);
    expect(dictionaryFrom([new Uint8Array(TEXT_DICTIONARY_BYTES - 1)])).toBeNull();
    expect(dictionaryFrom([])).toBeNull();
  });

  it("a reader holding the dictionary of tables rebuilt since by another process reads the new chunks", async () => {
    const { claudeDir, dbPath } = setUp();
    const path = dbPath("index");
    await syncIndex({ claudeDir, dbPath: path, thread: false, batchFiles: 1 });
    const reader = openSessionIndex(path, { readonly: true });
    try {
      const before = readAll(reader);
      // Another process: `ctx reindex` (the tables made again), and another dictionary for the new chunks.
      withIndex(path, (index) => {
        emptyIndex(index);
        databaseOf(index).prepare("INSERT INTO meta(key, value) VALUES ('text_dictionary', ?)").run(otherDictionary());
      });
      await syncIndex({ claudeDir, dbPath: path, thread: false, batchFiles: 1 });
      const after = readAll(reader);
      expect(after.withDictionary).toBeGreaterThan(10);
      expect(after.texts).toEqual(before.texts);
    } finally {
      reader.close();
    }
  });

  it("a chunk whose dictionary is gone or changed is INDEX_CORRUPT with the reindex hint, never other text", async () => {
    const { claudeDir, dbPath } = setUp();
    const path = dbPath("index");
    await syncIndex({ claudeDir, dbPath: path, thread: false, batchFiles: 1 });
    const corrupt = expect.objectContaining({ code: "INDEX_CORRUPT", hint: "run `ctx reindex`" });
    for (const damage of [
      "DELETE FROM meta WHERE key = 'text_dictionary'",
      "UPDATE meta SET value = randomblob(32768) WHERE key = 'text_dictionary'",
    ]) {
      const copy = dbPath(`copy-${damage.length}`);
      withIndex(path, (index) => databaseOf(index).exec(`VACUUM INTO '${copy}'`));
      withIndex(copy, (index) => databaseOf(index).exec(damage));
      withIndex(copy, (index) => expect(() => readAll(index)).toThrow(corrupt));
    }
    // The index as it was still reads.
    withIndex(path, (index) => expect(readAll(index).withDictionary).toBeGreaterThan(10));
  });

  it("a file packed with a dictionary the index no longer has is packed again when it is written", async () => {
    const { claudeDir, dbPath } = setUp();
    const path = dbPath("index");
    await syncIndex({ claudeDir, dbPath: path, thread: false, batchFiles: 1 });
    const transcript = join(claudeDir, "projects", SPOTTER_PROJECT, `${LONG_SESSION}.jsonl`);
    const index = openSessionIndex(path);
    try {
      const expected = readSourceChunks(index, transcript).map((chunk) => chunk.text);
      const db = databaseOf(index);
      db.prepare("DELETE FROM chunks WHERE file_id = (SELECT id FROM files WHERE path = ?)").run(transcript);
      db.prepare("DELETE FROM files WHERE path = ?").run(transcript);
      const writer = new IndexWriter(index);
      const { size, mtimeMs } = statSync(transcript);
      const file = { path: transcript, sessionId: LONG_SESSION, project: SPOTTER_PROJECT, kind: "main" as const };
      const plan = await planFile(writer, { ...file, size, mtimeMs }, { full: false });
      if (plan === null) throw new Error("nothing to write");
      expect(plan.job.textDictionary).not.toBeNull();
      const content = await readFileContent(plan.job);
      expect(content.chunks.some((row) => dictionaryIdOf(row.packed) !== null)).toBe(true);
      // Meanwhile another process made the tables again, with another dictionary.
      db.prepare("UPDATE meta SET value = ? WHERE key = 'text_dictionary'").run(otherDictionary());
      index.writeTransaction(() => {
        writer.textDictionary(true);
        applyPreparedFile(writer, { ...plan, content });
      });
      const written = db
        .prepare("SELECT c.text FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ?")
        .all(transcript) as Array<{ text: unknown }>;
      expect(written.some((row) => dictionaryIdOf(row.text) !== null)).toBe(true);
      expect(readSourceChunks(index, transcript).map((chunk) => chunk.text)).toEqual(expected);
    } finally {
      index.close();
    }
  });
});
