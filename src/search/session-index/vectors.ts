// Chunk vectors in the session index (table chunk_vectors, owned here): one L2-normalised Float32 vector
// per chunk and model, filled in the background, and exact cosine top-k over them in JS. Beyond the contract's
// columns, `seq` orders writes (monotonic in commit order, and above the wall clock in microseconds so it keeps
// growing after `ctx reindex` drops the table): a searcher's cache reloads only rows newer than it has seen.
import type { DatabaseSync } from "node:sqlite";
import type { ChunkHit, MemoryType, SearchFilters } from "../../core/search/model.ts";
import { similarityFromCosine, topIndexes } from "../../core/search/vector-math.ts";
import type { Embedder } from "../embedders/types.ts";
import { VECTOR_COUNT_SQL } from "./counts-schema.ts";
import { databaseOf } from "./database.ts";
import { filterClause } from "./rows.ts";
import type { SessionIndex } from "./session-index.ts";
import { readStoredText } from "./text-dictionary.ts";

/** Same shape as src/search/search-sessions.ts VectorSearch. */
export type VectorSearchFn = (query: string, limit: number, filters: SearchFilters) => Promise<ChunkHit[]>;

export interface VectorRow {
  chunkId: number;
  vector: Float32Array;
  /** When given, the vector is stored only if the chunk still has this text (a concurrent sync may have re-chunked it). */
  text?: string;
}

const hasTable = (db: DatabaseSync, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/**
 * Creates chunk_vectors (and the trigger that drops a deleted chunk's vector, and its count in the index's counts:
 * ./counts-schema.ts); idempotent. One transaction, so no vector is written between the table and its count.
 */
export function ensureVectorTable(db: DatabaseSync): void {
  const own = !db.isTransaction;
  if (own) db.exec("BEGIN IMMEDIATE");
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS chunk_vectors(
      chunk_id INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL, seq INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX IF NOT EXISTS chunk_vectors_model_seq ON chunk_vectors(model, seq);`);
    if (hasTable(db, "chunks")) {
      db.exec(`CREATE TRIGGER IF NOT EXISTS chunk_vectors_follow_chunks AFTER DELETE ON chunks
        BEGIN DELETE FROM chunk_vectors WHERE chunk_id = OLD.id; END;`);
    }
    if (hasTable(db, "counts")) db.exec(VECTOR_COUNT_SQL);
    if (own) db.exec("COMMIT");
  } catch (error) {
    if (own && db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/** Chunks with no vector of `model`, newest first (recent sessions are the likeliest fork targets). */
export function chunksMissingVectors(
  db: DatabaseSync,
  model: string,
  limit: number,
): Array<{ chunkId: number; text: string }> {
  if (!hasTable(db, "chunks") || !hasTable(db, "chunk_vectors")) return [];
  const rows = db
    .prepare(
      `SELECT c.id AS chunkId, c.text AS text FROM chunks c
       WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model = ?)
       ORDER BY c.id DESC LIMIT ?`,
    )
    .all(model, limit) as Array<{ chunkId: number; text: unknown }>;
  return rows.map((row) => ({ chunkId: row.chunkId, text: readStoredText(db, row.text) }));
}

/** How many chunks still lack a vector of `model`. */
export function countMissingVectors(db: DatabaseSync, model: string): number {
  if (!hasTable(db, "chunks")) return 0;
  if (!hasTable(db, "chunk_vectors")) return (db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
  const row = db
    .prepare(
      `SELECT count(*) AS n FROM chunks c
       WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model = ?)`,
    )
    .get(model) as { n: number };
  return row.n;
}

/** How many vectors of `model` the open index holds (vector search stays off at 0). */
export function countIndexVectors(index: SessionIndex, model: string): number {
  return countVectors(databaseOf(index), model);
}

export function countVectors(db: DatabaseSync, model: string): number {
  if (!hasTable(db, "chunk_vectors")) return 0;
  return (db.prepare("SELECT count(*) AS n FROM chunk_vectors WHERE model = ?").get(model) as { n: number }).n;
}

/** Stores vectors in one short transaction; returns how many were written (chunks gone meanwhile are skipped). */
export function putVectors(db: DatabaseSync, model: string, rows: readonly VectorRow[]): number {
  if (rows.length === 0) return 0;
  const nextSeq = db.prepare("SELECT max(coalesce(max(seq), 0) + 1, ?) AS seq FROM chunk_vectors");
  const chunkText = db.prepare("SELECT text FROM chunks WHERE id = ?");
  const insert = db.prepare("INSERT OR REPLACE INTO chunk_vectors(chunk_id, model, vector, seq) VALUES (?, ?, ?, ?)");
  let written = 0;
  db.exec("BEGIN IMMEDIATE");
  try {
    let seq = (nextSeq.get(Date.now() * 1000) as { seq: number }).seq;
    for (const row of rows) {
      // The text is compared here, not in SQL: a stored text may be packed (./chunk-text.ts).
      const chunk = chunkText.get(row.chunkId) as { text: unknown } | undefined;
      if (chunk === undefined || (row.text !== undefined && readStoredText(db, chunk.text) !== row.text)) continue;
      insert.run(row.chunkId, model, encodeVector(row.vector), seq);
      written += 1;
      seq += 1;
    }
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  return written;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Float32 little-endian, as the contract fixes. */
export function encodeVector(vector: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  const out = new Uint8Array(vector.length * 4);
  const view = new DataView(out.buffer);
  for (const [i, value] of vector.entries()) view.setFloat32(i * 4, value, true);
  return out;
}

export function decodeVector(bytes: Uint8Array): Float32Array {
  const length = Math.floor(bytes.byteLength / 4);
  if (LITTLE_ENDIAN_HOST) {
    // A view when aligned (node:sqlite hands out a fresh buffer per value), else a copy.
    if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, length);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + length * 4));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length }, (_, i) => view.getFloat32(i * 4, true));
}

/** A VectorSearch over the open index (createVectorSearch on its database). */
export function createIndexVectorSearch(index: SessionIndex, embedder: Embedder): VectorSearchFn {
  return createVectorSearch(databaseOf(index), embedder);
}

/**
 * A VectorSearch over `db` (the index's tables, or the contract's in tests): embeds the query, scores every stored
 * vector of the embedder's model by dot product (= cosine, all unit length) and returns the top `limit` chunks with a
 * 0..1 similarity (core/search/vector-math.ts similarityFromCosine). Vectors live in one packed in-memory matrix,
 * refreshed incrementally (rows newer than the last seen `seq`; deletions found by a count mismatch).
 */
export function createVectorSearch(db: DatabaseSync, embedder: Embedder): VectorSearchFn {
  const cache = createVectorCache(db, embedder.id);
  return async (query, limit, filters) => {
    const [queryVector] = await embedder.embedQueries([query]);
    if (queryVector === undefined || !hasTable(db, "chunk_vectors")) return [];
    await cache.refresh();
    if (cache.dimensions !== queryVector.length || cache.used === 0) return [];
    const allowed = allowedSessions(db, filters);
    const scores = cache.score(queryVector, allowed);
    const top = topIndexes(scores, limit).map((slot) => ({
      chunkId: cache.chunkIds[slot] as number,
      cosine: scores[slot] as number,
    }));
    return hitsFor(db, top);
  };
}

const PAGE_ROWS = 2_000;

function createVectorCache(db: DatabaseSync, model: string) {
  let dimensions = 0;
  let matrix = new Float32Array(0);
  /** Per slot: the chunk id (-1 = free) and its session. */
  const chunkIds: number[] = [];
  const sessionIds: string[] = [];
  const slotOf = new Map<number, number>();
  const free: number[] = [];
  let maxSeq = 0;

  const place = (chunkId: number, sessionId: string, vector: Float32Array) => {
    let slot = slotOf.get(chunkId) ?? free.pop() ?? chunkIds.length;
    if (slot === chunkIds.length) {
      chunkIds.push(-1);
      sessionIds.push("");
      if (matrix.length < chunkIds.length * dimensions) {
        const grown = new Float32Array(Math.max(1_024, chunkIds.length * 2) * dimensions);
        grown.set(matrix);
        matrix = grown;
      }
    }
    slot = slot as number;
    matrix.set(vector, slot * dimensions);
    chunkIds[slot] = chunkId;
    sessionIds[slot] = sessionId;
    slotOf.set(chunkId, slot);
  };

  const cache = {
    get dimensions() {
      return dimensions;
    },
    get used() {
      return slotOf.size;
    },
    chunkIds,
    /** Loads what changed since the last call, a page at a time (yielding between pages: the server stays responsive). */
    async refresh(): Promise<void> {
      const page = db.prepare(
        `SELECT v.chunk_id AS chunkId, v.vector AS vector, v.seq AS seq, c.session_id AS sessionId
         FROM chunk_vectors v CROSS JOIN chunks c ON c.id = v.chunk_id
         WHERE v.model = ? AND v.seq > ? ORDER BY v.seq LIMIT ?`,
      );
      for (;;) {
        const rows = page.all(model, maxSeq, PAGE_ROWS) as Array<{
          chunkId: number;
          vector: Uint8Array;
          seq: number;
          sessionId: string;
        }>;
        for (const row of rows) {
          maxSeq = Math.max(maxSeq, row.seq);
          const vector = decodeVector(row.vector);
          if (dimensions === 0) dimensions = vector.length;
          if (vector.length === dimensions) place(row.chunkId, row.sessionId, vector);
        }
        if (rows.length < PAGE_ROWS) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Deleted vectors (a re-chunked session, a reindex) show up as a count mismatch: free the slots of ids that are gone.
      if (countVectors(db, model) !== slotOf.size) {
        const present = new Set(
          (
            db.prepare("SELECT chunk_id AS id FROM chunk_vectors WHERE model = ?").all(model) as Array<{ id: number }>
          ).map((row) => row.id),
        );
        for (const [chunkId, slot] of slotOf) {
          if (present.has(chunkId)) continue;
          slotOf.delete(chunkId);
          chunkIds[slot] = -1;
          free.push(slot);
        }
      }
    },
    /** Cosine of every slot with `query`; free and filtered-out slots score -Infinity. */
    score(query: Float32Array, allowed: Set<string> | null): Float32Array {
      const slots = chunkIds.length;
      const scores = new Float32Array(slots);
      for (let slot = 0; slot < slots; slot++) {
        if (chunkIds[slot] === -1 || (allowed !== null && !allowed.has(sessionIds[slot] as string))) {
          scores[slot] = Number.NEGATIVE_INFINITY;
          continue;
        }
        let sum = 0;
        const base = slot * dimensions;
        for (let k = 0; k < dimensions; k++) sum += (query[k] as number) * (matrix[base + k] as number);
        scores[slot] = sum;
      }
      return scores;
    },
  };
  return cache;
}

/** Session ids passing the filters (the BM25 side's own clause), or null when nothing is filtered. */
function allowedSessions(db: DatabaseSync, filters: SearchFilters): Set<string> | null {
  const clause = filterClause(filters);
  if (clause.sql === "") return null;
  const rows = db.prepare(`SELECT s.id AS id FROM sessions s WHERE 1 ${clause.sql}`).all(...clause.params) as Array<{
    id: string;
  }>;
  return new Set(rows.map((row) => row.id));
}

function hitsFor(db: DatabaseSync, top: Array<{ chunkId: number; cosine: number }>): ChunkHit[] {
  if (top.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT id, session_id AS sessionId, chunk_index AS chunkIndex, memory_type AS memoryType, text
       FROM chunks WHERE id IN (${top.map(() => "?").join(", ")})`,
    )
    .all(...top.map((hit) => hit.chunkId)) as Array<{
    id: number;
    sessionId: string;
    chunkIndex: number;
    memoryType: MemoryType | null;
    text: unknown;
  }>;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return top.flatMap(({ chunkId, cosine }) => {
    const row = byId.get(chunkId);
    if (row === undefined) return [];
    return [
      {
        chunkId: row.id,
        sessionId: row.sessionId,
        chunkIndex: row.chunkIndex,
        similarity: similarityFromCosine(cosine),
        memoryType: row.memoryType,
        text: readStoredText(db, row.text),
      },
    ];
  });
}
