// Small helpers for vector tests: the contract's sessions/chunks tables in a temp SQLite file, and a
// bag-of-words embedder (each word hashed into a dimension) whose cosines follow shared words, so rankings
// are predictable without a model.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { normalizeL2 } from "../../src/core/search/vector-math.ts";
import type { Embedder } from "../../src/search/embedders/types.ts";

export function openContractDb(): { db: DatabaseSync; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), "ctx-vectors-")), "index.db");
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA journal_mode = WAL;
    CREATE TABLE sessions(id TEXT PRIMARY KEY, project TEXT, cwd TEXT, path TEXT, git_branch TEXT, created_at INTEGER,
      updated_at INTEGER, message_count INTEGER, title TEXT, tags TEXT, memory_markers TEXT);
    CREATE TABLE chunks(id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, chunk_index INTEGER, first_message INTEGER,
      last_message INTEGER, text TEXT, token_count INTEGER, has_code INTEGER, languages TEXT, memory_type TEXT);`);
  return { db, path };
}

export function addSession(
  db: DatabaseSync,
  id: string,
  options: { project?: string; updatedAt?: number; tags?: string[] } = {},
): void {
  db.prepare("INSERT INTO sessions(id, project, updated_at, tags) VALUES (?, ?, ?, ?)").run(
    id,
    options.project ?? "-p",
    options.updatedAt ?? 1_000,
    JSON.stringify(options.tags ?? []),
  );
}

export function addChunk(
  db: DatabaseSync,
  sessionId: string,
  text: string,
  options: { id?: number; memoryType?: string } = {},
): number {
  const index = (db.prepare("SELECT count(*) AS n FROM chunks WHERE session_id = ?").get(sessionId) as { n: number }).n;
  const result = db
    .prepare("INSERT INTO chunks(id, session_id, chunk_index, text, memory_type) VALUES (?, ?, ?, ?, ?)")
    .run(options.id ?? null, sessionId, index, text, options.memoryType ?? null);
  return Number(result.lastInsertRowid);
}

const hashWord = (word: string, dimensions: number) => {
  let hash = 2166136261;
  for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) as number), 16777619) >>> 0;
  return hash % dimensions;
};

/** Embeds by counting hashed words; queries and documents alike (no prefixes: nothing to learn here). */
export function bagOfWordsEmbedder(dimensions = 64, model = "bow"): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  const embed = async (texts: string[]) => {
    calls.push(texts);
    return texts.map((text) => {
      const counts = new Float32Array(dimensions);
      for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
        counts[hashWord(word, dimensions)] = (counts[hashWord(word, dimensions)] as number) + 1;
      counts[dimensions - 1] = (counts[dimensions - 1] as number) + 0.01; // never the zero vector
      return normalizeL2(counts) as Float32Array;
    });
  };
  return { id: `test:${model}`, model, dimensions, calls, embedQueries: embed, embedDocuments: embed };
}
